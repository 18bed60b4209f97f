import type { IN8nHttpFullResponse, INode } from 'n8n-workflow';

import {
	apiErrorFromResponse,
	connectionError,
	throwIfApiError,
	uncertainWriteError,
} from '../../../nodes/shared/apiError';
import { failureError } from '../../../nodes/shared/errors';
import { TRIGGER_RATE_LIMIT_ADVICE } from '../../../nodes/PartnerPayrollTrigger/helpers/requests';
import { streamOf } from '../../support/streams';

// What the user reads, checked without a request: each message names what failed and what to do.

const node = { name: 'Partner Payroll' } as INode;
const answer = (statusCode: number, body: unknown, headers = {}): IN8nHttpFullResponse => ({
	statusCode,
	body: body as IN8nHttpFullResponse['body'],
	headers,
});

describe('the error map', () => {
	it("shows the body's errors[] entries", () => {
		const error = apiErrorFromResponse(
			node,
			answer(400, {
				error: 'Bad Request',
				details: 'monthOfApplication is invalid',
				errors: [{ field: 'monthOfApplication', message: 'must be YYYYMM' }],
			}),
		);
		expect(error.message).toBe('Bad request: monthOfApplication is invalid');
		expect(error.description).toContain('"field":"monthOfApplication","message":"must be YYYYMM"');
	});

	it('keeps the title of a proxy HTML page, not its markup', () => {
		const html = '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';
		const error = apiErrorFromResponse(node, answer(502, Buffer.from(html)));
		expect(error.message).toBe('The Partner Payroll service failed (HTTP 502)');
		expect(error.description).toBe('The service answered: 502 Bad Gateway');
		expect(error.retryable).toBe(true);
	});

	it('the 429 advice names a setting of the node that failed', () => {
		const advice = 'Poll less often: raise Poll Times of this trigger.';
		const error = apiErrorFromResponse(node, answer(429, { message: 'API rate limit exceeded' }), {
			rateLimitAdvice: advice,
		});
		expect(error.description).toContain(advice);
	});
});

describe('answers of the service, by status', () => {
	it('403 with a scope names the scope to add', () => {
		const error = apiErrorFromResponse(
			node,
			answer(403, { error: 'Forbidden', details: 'Missing scope "payment-files:read"' }),
		);
		expect(error.message).toBe('Missing scope "payment-files:read"');
		expect(error.description).toContain('Add it to the scopes of the credential');
	});

	it('404 of a country-limited operation says which country it serves', () => {
		const error = apiErrorFromResponse(node, answer(404, { error: 'Not found' }), {
			country: 'GB',
		});
		expect(error.description).toContain('companies in the United Kingdom (GB) only');
	});

	it('a 503 may succeed again, a 400 may not; a 429 without Retry-After waits for the next second', () => {
		expect(apiErrorFromResponse(node, answer(503, {})).retryable).toBe(true);
		expect(apiErrorFromResponse(node, answer(400, {})).retryable).toBe(false);
		const limited = apiErrorFromResponse(
			node,
			answer(429, { message: 'API rate limit exceeded' }, { 'x-ratelimit-remaining-second': '0' }),
		);
		expect(limited.retryAfterMs).toBe(1000);
	});

	it('reads a streamed error body, so the service words survive on binary operations', async () => {
		const body = streamOf(Buffer.from('{"error":"Not found","details":"No payment file"}'));
		await expect(throwIfApiError(node, answer(404, body))).rejects.toThrow(
			'Not found: No payment file',
		);
	});

	it('lets a success through untouched', async () => {
		await expect(throwIfApiError(node, answer(200, { status: 'completed' }))).resolves.toBe(
			undefined,
		);
	});
});

describe('failures without an answer', () => {
	it('names a transport failure in words, never as a raw code', () => {
		expect(connectionError(node, { code: 'ECONNRESET' }).message).toBe(
			'Could not get a complete answer from the Partner Payroll API (connection reset)',
		);
		expect(connectionError(node, { code: 'ERR_BAD_RESPONSE' }).message).toContain('answer cut off');
	});

	it('a write that may have been recorded says so, and says not to run again blindly', () => {
		const error = uncertainWriteError(
			node,
			{ httpCode: '502' },
			{ effect: 'The billing declaration' },
		);
		expect(error.message).toBe(
			'The billing declaration may have been recorded: the service failed (HTTP 502) after the request was sent',
		);
		expect(error.description).toContain('check with the Partner Payroll provider');
		expect(uncertainWriteError(node, { code: 'ETIMEDOUT' }).message).toContain(
			'the connection failed (timed out)',
		);
	});

	it('fills the values of a failure into its message and description', () => {
		const error = failureError(node, 'retryAfterTooLong', {
			seconds: 90,
			maxWait: 30,
			advice: TRIGGER_RATE_LIMIT_ADVICE,
		});
		expect(error.message).toBe('The Partner Payroll API asked to wait 90 s before trying again');
		expect(error.description).toContain('longer than this node waits between attempts (30 s)');
		expect(error.description).toContain('raise Poll Times');
	});

	it('names the host that does not resolve, or the API Base URL when it is unknown', () => {
		expect(failureError(node, 'hostNotFound', { host: 'api.example.invalid' }).message).toBe(
			'Cannot find the server api.example.invalid',
		);
		expect(failureError(node, 'hostNotFound').message).toBe(
			'Cannot find the server the host of the API Base URL',
		);
	});
});
