import { SandboxSession, failureOf, runPartnerPayroll } from '../../../support/fixtures';

// first-use.md: the error table, and the Month typos of review finding 5, against the sandbox.

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());

const status = (companyId: string, month = '202610') => ({
	resource: 'payroll',
	operation: 'getStatus',
	companyId,
	month,
});

describe('Company ID and token disagree', () => {
	it('a 404 on a typed Company ID says which company the token is for', async () => {
		const token = await session.token('FR1001');
		const error = await failureOf(runPartnerPayroll(status('GB3001'), session.accessToken(token)));
		expect(error.message).toBe('Not found: The provided id is wrong');
		expect(error.description).toMatch(
			/^The token of this credential is for company FR1001, and Company ID is GB3001/,
		);
		expect(error.description).toContain('Ressource not found');
		// One explanation, not the same sentence twice.
		expect(error.description!.split('a token sees only its own company')).toHaveLength(2);
	});
});

describe('a revoked token: one wording whatever the path', () => {
	it.each([
		['Company ID typed', 'FR1001'],
		['Company ID empty (token lookup)', ''],
	])('%s', async (_path, companyId) => {
		const token = await session.token('FR1001');
		await session.control('POST', '/tokens/revoke', { token });
		const error = await failureOf(runPartnerPayroll(status(companyId), session.accessToken(token)));
		expect(error.message).toBe('The access token is invalid or has been revoked');
		expect(error.description).toContain('Reconnect the Partner Payroll credential');
	});
});

describe("the country error's first line names the country", () => {
	it('UK income tax documents for a French company', async () => {
		const token = await session.token('FR1001');
		const error = await failureOf(
			runPartnerPayroll(
				{ resource: 'document', operation: 'getIncomeTaxDocuments', companyId: 'FR1001' },
				session.accessToken(token),
			),
		);
		expect(error.description).toMatch(
			/^This operation serves companies in the United Kingdom \(GB\) only\./,
		);
	});
});

describe('Month accepts only what it documents (finding 5)', () => {
	it.each(['202610-15', '2026-10-99', '2026-10-31Tgarbage', '2026-10-31T25:00'])(
		'%p is refused before any request',
		async (month) => {
			const token = await session.token('FR1001');
			await session.clearRequests();
			const error = await failureOf(
				runPartnerPayroll(status('FR1001', month), session.accessToken(token)),
			);
			expect(error.message).toBe(
				`Month must be a month as YYYYMM, for example 202610 (got "${month}")`,
			);
			expect(await session.requests()).toHaveLength(0);
		},
	);
});

describe('a slow answer: the timeout error names the option to change (finding 7)', () => {
	it('Settings > Request Options > Timeout', async () => {
		const token = await session.token('FR1001');
		await session.injectFault({
			path: '/api/v1/companies/FR1001/payroll-status',
			type: 'delay',
			delayMs: 1500,
			count: 4,
		});
		const error = await failureOf(
			runPartnerPayroll(
				{ ...status('FR1001'), requestOptions: { timeout: 300 } },
				session.accessToken(token),
			),
		);
		expect(`${error.message} ${error.description}`).toContain(
			'Settings > Request Options > Timeout (ms)',
		);
	}, 30_000);
});
