import type { INode } from 'n8n-workflow';

import { connectionError } from '../../../nodes/shared/apiError';
import { sendWithPolicy } from '../../../nodes/shared/requestPolicy';

/** The policy around `send`, one call per attempt with that attempt's timeout, its result as the answer. */
const attempting = <T>(
	policy: Parameters<typeof sendWithPolicy>[0],
	send: (attempt: { timeoutMs: number }) => Promise<T>,
): Promise<T> =>
	sendWithPolicy(
		policy,
		{
			helper: async (options: { timeout: number }) => await send({ timeoutMs: options.timeout }),
			thisArg: undefined,
			before: [],
			options: {},
			after: [],
		},
		async (answer) => answer as unknown as T,
	);
import { SandboxSession, failureOf, runPartnerPayroll, sha256 } from '../../support/fixtures';
import { binaryBytes } from '../../support/n8n-harness';
import { pause } from '../../support/network';

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());

const STATUS_PATH = '/api/v1/companies/FR1001/payroll-status';
const getStatus = {
	resource: 'payroll',
	operation: 'getStatus',
	companyId: 'FR1001',
	month: '202610',
};

describe('cancelling an execution', () => {
	it('stops a retry wait within a second, without another attempt', async () => {
		const token = await session.token('FR1001');
		await session.injectFault({ path: STATUS_PATH, type: 'status', status: 429, retryAfter: 20 });
		await session.clearRequests();
		const cancel = new AbortController();
		const run = failureOf(
			runPartnerPayroll(getStatus, session.accessToken(token), { abortSignal: cancel.signal }),
		);
		while ((await session.requests()).length === 0) await pause(50);
		await pause(200); // inside the 20 s wait now
		const cancelledAt = Date.now();
		cancel.abort();
		const error = await run;
		expect(Date.now() - cancelledAt).toBeLessThan(1000);
		expect(error.message).toMatch(/cancelled/i);
		expect(await session.requests()).toHaveLength(1);
	});
});

describe('no nested retries', () => {
	it('a PDF that keeps failing under Download Files: 4 attempts at it, the listing read once', async () => {
		const token = await session.token('GB3001');
		const listing = await runPartnerPayroll(
			{ resource: 'document', operation: 'getIncomeTaxDocuments' },
			session.accessToken(token),
		);
		const [first, second] = listing.map((item) => String(item.json.documentUrl));
		await session.injectFault({ path: second, type: 'status', status: 503, count: 20 });
		await session.clearRequests();

		const error = await failureOf(
			runPartnerPayroll(
				{
					resource: 'document',
					operation: 'getIncomeTaxDocuments',
					companyId: 'GB3001',
					options: { downloadFiles: true },
				},
				session.accessToken(token),
			),
		);

		expect(error.message).toBe('The Partner Payroll service failed (HTTP 503)');
		const paths = (await session.requests()).map((request) => request.path);
		const count = (path: string) => paths.filter((candidate) => candidate.endsWith(path)).length;
		expect(count('/companies/GB3001/income-taxes-documents')).toBe(1);
		expect(count(first)).toBe(1);
		expect(count(second)).toBe(4);
	}, 30_000);
});

describe('streamed files', () => {
	it('a PDF cut off mid-way under Download Files is fetched again, every byte intact', async () => {
		const token = await session.token('GB3001');
		const listing = await runPartnerPayroll(
			{ resource: 'document', operation: 'getIncomeTaxDocuments' },
			session.accessToken(token),
		);
		const cut = String(listing[0].json.documentUrl);
		await session.injectFault({ path: cut, type: 'truncate' });
		await session.clearRequests();

		const items = await runPartnerPayroll(
			{
				resource: 'document',
				operation: 'getIncomeTaxDocuments',
				companyId: 'GB3001',
				options: { downloadFiles: true },
			},
			session.accessToken(token),
		);

		for (const item of items) {
			expect(sha256(binaryBytes(item))).toBe(
				sha256(session.sandbox.seed.document('GB3001', String(item.json.documentId))),
			);
		}
		const paths = (await session.requests()).map((request) => request.path);
		expect(paths.filter((path) => path.endsWith(cut))).toHaveLength(2);
	});
});

describe('failures that sending again cannot mend fail at once, with their own message', () => {
	it('an OAuth2 credential that was never connected: click Connect', async () => {
		const credentials = session.oauth2('unused');
		delete credentials.partnerPayrollOAuth2Api.oauthTokenData;
		await session.clearRequests();
		const error = await failureOf(runPartnerPayroll(getStatus, credentials));
		expect(error.message).toBe('The OAuth2 credential is not connected: click Connect');
		// The button of both n8n rows: "Connect" in 2.40, "Connect my account" in 2.8.
		expect((error as { description?: string }).description).toContain(
			'click "Connect" ("Connect my account" in n8n 2.8)',
		);
		expect(await session.requests()).toEqual([]);
	});

	it('a host that does not resolve names the host and the field to check', async () => {
		const started = Date.now();
		const error = await failureOf(
			runPartnerPayroll(
				getStatus,
				session.accessToken('any-token', { baseUrl: 'http://api.partner-payroll.invalid/v1' }),
			),
		);
		expect(error.message).toBe('Cannot find the server api.partner-payroll.invalid');
		expect(error.description).toMatch(/API Base URL/);
		expect(Date.now() - started).toBeLessThan(5000);
	});

	it('a 429 asking for more than 30 s: one request, the asked wait in the message', async () => {
		const token = await session.token('FR1001');
		await session.injectFault({ path: STATUS_PATH, type: 'status', status: 429, retryAfter: 90 });
		await session.clearRequests();
		const error = await failureOf(runPartnerPayroll(getStatus, session.accessToken(token)));
		expect(error.message).toBe('The Partner Payroll API asked to wait 90 s before trying again');
		expect(error.description).toMatch(/Request Options > Batching/);
		expect(await session.requests()).toHaveLength(1);
	});
});

describe("a caller's time budget (a trigger poll)", () => {
	it('ends the attempts with a clear error once the budget is spent', async () => {
		const node = { name: 'Partner Payroll Trigger' } as INode;
		let attempts = 0;
		const started = Date.now();
		const send = async () => {
			attempts++;
			throw connectionError(node, { code: 'ECONNRESET' });
		};
		await expect(
			attempting({ node, method: 'GET', deadline: Date.now() + 1500 }, send),
		).rejects.toThrow(
			'The Partner Payroll API did not answer within the time budget of this poll (Could not get a complete answer from the Partner Payroll API (connection reset))',
		);
		expect(attempts).toBe(1 + 1); // the wait before a third attempt would pass the budget
		expect(Date.now() - started).toBeLessThan(1500);
	});
});

describe('attempts and their timeout', () => {
	const node = { name: 'Partner Payroll' } as INode;
	const transportError = (code: string) => Object.assign(new Error(code.toLowerCase()), { code });

	it("the user's Timeout is the attempt timeout, longer than 25 s too", async () => {
		const timeouts: number[] = [];
		await attempting({ node, method: 'GET', attemptTimeoutMs: 60_000 }, async ({ timeoutMs }) => {
			timeouts.push(timeoutMs);
		});
		await attempting({ node, method: 'GET' }, async ({ timeoutMs }) => {
			timeouts.push(timeoutMs);
		});
		expect(timeouts).toEqual([60_000, 25_000]);
	});

	it('a temporary name lookup failure sent nothing: even a write is sent again', async () => {
		let attempts = 0;
		const result = await attempting({ node, method: 'POST' }, async () => {
			attempts++;
			if (attempts === 1) throw transportError('EAI_AGAIN');
			return 'recorded';
		});
		expect(result).toBe('recorded');
		expect(attempts).toBe(2);
	});

	it('an answer that stalls until the timeout is reported as timed out, not as a reset', async () => {
		const error = await failureOf(
			attempting({ node, method: 'POST', attemptTimeoutMs: 200 }, async () => {
				await pause(250);
				throw transportError('ECONNRESET');
			}),
		);
		expect(error.message).toContain('the connection failed (timed out)');
	});
});
