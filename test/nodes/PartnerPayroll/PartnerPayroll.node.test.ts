import type { INodeExecutionData } from 'n8n-workflow';

import {
	DEFAULT_CLIENT,
	SandboxSession,
	failureOf,
	runPartnerPayroll,
} from '../../support/fixtures';
import { pause } from '../../support/network';

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());

const statusOf = (month: string) => ({
	resource: 'payroll',
	operation: 'getStatus',
	companyId: 'FR1001',
	month,
});
const STATUS_PATH = '/api/v1/companies/FR1001/payroll-status';

/** Everything n8n could show or store about an error: message, description, cause, context. */
function serialised(error: unknown): string {
	return JSON.stringify(error, Object.getOwnPropertyNames(error as object));
}

describe('API errors keep the service details', () => {
	it('401 for a revoked token asks to reconnect', async () => {
		const token = await session.token('FR1001');
		await session.control('POST', '/tokens/revoke', { token });
		const error = await failureOf(
			runPartnerPayroll(statusOf('202610'), session.accessToken(token)),
		);
		expect(error).toMatchObject({
			httpCode: '401',
			message: 'The access token is invalid or has been revoked',
			description: expect.stringContaining('Reconnect the Partner Payroll credential'),
		});
	});

	it('404 for another company keeps the service wording', async () => {
		const token = await session.token('FR1001');
		const error = await failureOf(
			runPartnerPayroll({ ...statusOf('202610'), companyId: 'GB3001' }, session.accessToken(token)),
		);
		expect(error).toMatchObject({
			httpCode: '404',
			message: 'Not found: The provided id is wrong',
		});
		expect(error.description).toContain('Ressource not found');
	});

	it('400 keeps the service details', async () => {
		const token = await session.token('FR1001');
		await session.injectFault({ path: STATUS_PATH, type: 'status', status: 400 });
		const error = await failureOf(
			runPartnerPayroll(statusOf('202610'), session.accessToken(token)),
		);
		expect(error.httpCode).toBe('400');
		expect(error.message).toMatch(/^Bad request: /);
	});
});

describe('retry on 429 and 5xx', () => {
	it.each([
		[{ type: 'status', status: 429, retryAfter: 1, count: 1 }, 2],
		[{ type: 'status', status: 503, count: 2 }, 3],
		[{ type: 'status', status: 500, count: 1 }, 2],
		[{ type: 'truncate', count: 1 }, 2],
	])('after %p the request succeeds, sent %p times', async (fault, attempts) => {
		const token = await session.token('FR1001');
		await session.injectFault({ path: STATUS_PATH, ...fault });
		await session.clearRequests();
		const [item] = await runPartnerPayroll(statusOf('202610'), session.accessToken(token));
		expect(item.json.status).toBe('completed');
		const sent = (await session.requests()).filter((request) => request.path === STATUS_PATH);
		expect(sent).toHaveLength(attempts);
	});

	it('waits what Retry-After asks before the second attempt', async () => {
		const token = await session.token('FR1001');
		await session.injectFault({ path: STATUS_PATH, type: 'status', status: 429, retryAfter: 1 });
		await session.clearRequests();
		await runPartnerPayroll(statusOf('202610'), session.accessToken(token));
		const [first, second] = (await session.requests()).filter(
			(request) => request.path === STATUS_PATH,
		);
		expect(Date.parse(String(second.time)) - Date.parse(String(first.time))).toBeGreaterThanOrEqual(
			950,
		);
	});

	it('gives up after a bounded number of attempts with a clear error', async () => {
		const token = await session.token('FR1001');
		await session.injectFault({
			path: STATUS_PATH,
			type: 'status',
			status: 429,
			retryAfter: 0,
			count: 10,
		});
		await session.clearRequests();
		const error = await failureOf(
			runPartnerPayroll(statusOf('202610'), session.accessToken(token)),
		);
		expect(error.message).toMatch(/rate limit/i);
		expect(
			(await session.requests()).filter((request) => request.path === STATUS_PATH),
		).toHaveLength(4);
	});

	it('a garbled 200 answer is an error, not data', async () => {
		const token = await session.token('FR1001');
		await session.injectFault({ path: STATUS_PATH, type: 'malformed' });
		await expect(runPartnerPayroll(statusOf('202610'), session.accessToken(token))).rejects.toThrow(
			'The Partner Payroll API returned an answer that is not valid JSON',
		);
	});
});

describe('Continue On Fail', () => {
	it('keeps going per item: a bad month and a wrong company fail alone', async () => {
		const token = await session.token('FR1001');
		const items: INodeExecutionData[] = [
			{ json: { month: '202610', companyId: 'FR1001' } },
			{ json: { month: '2026-13', companyId: 'FR1001' } },
			{ json: { month: '202611', companyId: 'GB3001' } },
			{ json: { month: '202611', companyId: 'FR1001' } },
		];
		const output = await runPartnerPayroll(
			{
				resource: 'payroll',
				operation: 'getStatus',
				companyId: '={{ $json.companyId }}',
				month: '={{ $json.month }}',
			},
			session.accessToken(token),
			{ items, continueOnFail: true },
		);
		expect(output).toHaveLength(4);
		expect(output[0].json.status).toBe('completed');
		expect(output[1].error?.message).toMatch(/^Month must be a month as YYYYMM/);
		expect(output[2].error).toMatchObject({ httpCode: '404' });
		expect(output[3].json.status).toBe('not_completed');
		// Failed items too stay paired with their input, and carry $json.error as in n8n.
		expect(output.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(output[1].json.error).toMatch(/^Month must be a month as YYYYMM/);
	});
});

describe('pairedItem: every output item names its input item', () => {
	it('Get Entries with two input items: each entry paired with the month it came from', async () => {
		const token = await session.token('FR1001');
		const items: INodeExecutionData[] = [
			{ json: { month: '202609' } },
			{ json: { month: '202610' } },
		];
		const output = await runPartnerPayroll(
			{
				resource: 'accounting',
				operation: 'getEntries',
				companyId: 'FR1001',
				month: '={{ $json.month }}',
			},
			session.accessToken(token),
			{ items },
		);
		const perInput = [0, 1].map((input) =>
			output.filter(
				(item) => item.pairedItem && (item.pairedItem as { item: number }).item === input,
			),
		);
		expect(perInput[0].length).toBeGreaterThan(1);
		expect(perInput[1].length).toBeGreaterThan(1);
		expect(perInput[0].length + perInput[1].length).toBe(output.length);
	});

	it('a listing with Download Files and two input items: each document paired with its input', async () => {
		const token = await session.token('GB3001');
		const output = await runPartnerPayroll(
			{
				resource: 'document',
				operation: 'getAutoEnrolmentDocuments',
				companyId: 'GB3001',
				options: { downloadFiles: true },
			},
			session.accessToken(token),
			{ items: [{ json: {} }, { json: {} }] },
		);
		const pairs = output.map((item) => (item.pairedItem as { item: number }).item);
		expect(pairs.filter((pair) => pair === 0)).toHaveLength(output.length / 2);
		expect(pairs.filter((pair) => pair === 1)).toHaveLength(output.length / 2);
		expect(output.every((item) => item.binary?.data)).toBe(true);
	});
});

describe('secrets never leak', () => {
	it('no token or client secret in any output item or error', async () => {
		const token = await session.token('GB3001', ['contracts:payslips:read']);
		const revoked = await session.token('FR1001');
		await session.control('POST', '/tokens/revoke', { token: revoked });
		const runs = [
			runPartnerPayroll({ resource: 'company', operation: 'get' }, session.oauth2(token)),
			runPartnerPayroll(
				{
					resource: 'document',
					operation: 'getIncomeTaxDocuments',
					options: { downloadFiles: true },
				},
				session.accessToken(token),
			),
			runPartnerPayroll(
				{ resource: 'payroll', operation: 'downloadPaymentFile', month: '202610' },
				session.oauth2(token),
			),
			runPartnerPayroll(
				{ resource: 'accounting', operation: 'getEntries', month: '202610' },
				session.accessToken(token),
			),
			runPartnerPayroll(
				{
					resource: 'document',
					operation: 'download',
					documentId: 'https://elsewhere.example.org/x/documents/1',
				},
				session.accessToken(token),
			),
			runPartnerPayroll(statusOf('202610'), session.accessToken(revoked)),
			runPartnerPayroll({ resource: 'company', operation: 'get' }, session.accessToken(revoked)),
		];
		const settled = await Promise.allSettled(runs);
		expect(settled.filter((result) => result.status === 'rejected').length).toBeGreaterThanOrEqual(
			4,
		);
		for (const result of settled) {
			const text =
				result.status === 'fulfilled' ? JSON.stringify(result.value) : serialised(result.reason);
			expect(text).not.toContain(token);
			expect(text).not.toContain(revoked);
			expect(text).not.toContain(DEFAULT_CLIENT.clientSecret);
		}
	});
});

describe("at the service's rate limit (the sandbox's model: 50 reads per second per application)", () => {
	it('300 Get Status items with default settings: none fails, the pace stays under the limit', async () => {
		await session.control('POST', '/rate-limits', { enabled: true });
		const token = await session.token('FR1001');
		await session.clearRequests();
		const items: INodeExecutionData[] = Array.from({ length: 300 }, () => ({ json: {} }));
		const output = await runPartnerPayroll(
			{ resource: 'payroll', operation: 'getStatus', companyId: 'FR1001', month: '202610' },
			session.accessToken(token),
			{ items, continueOnFail: true },
		);
		expect(output.filter((item) => item.json.error)).toEqual([]);
		expect(output).toHaveLength(300);
		const refused = (await session.requests()).filter((request) => request.status === 429);
		// Only the first answers teach the pacer the limit: at most the first second's excess is refused.
		expect(refused.length).toBeLessThanOrEqual(16);
	}, 30_000);

	// A loaded machine or network delivers a request paced in one second in the next one, where the
	// service counts it: the 8 delayed requests arrive 1 s late, after the next second's slots are sent.
	it('requests that reach the service a second late count in the second they arrive: no 429', async () => {
		await session.control('POST', '/rate-limits', { enabled: true });
		const credentials = session.accessToken(await session.token('FR1001'));
		await runPartnerPayroll(statusOf('202610'), credentials); // teaches the pacer the limit
		await session.injectFault({ path: STATUS_PATH, type: 'delay', delayMs: 1_000, count: 8 });
		await session.clearRequests();
		await pause(1_200 - (Date.now() % 1_000)); // 200 ms into a second
		const items: INodeExecutionData[] = Array.from({ length: 120 }, () => ({ json: {} }));
		const output = await runPartnerPayroll(statusOf('202610'), credentials, {
			items,
			continueOnFail: true,
		});
		expect(output.filter((item) => item.json.error)).toEqual([]);
		const logged = await session.requests();
		expect(logged.filter((request) => request.status === 429)).toEqual([]);
		expect(logged).toHaveLength(120);
	}, 30_000);
});
