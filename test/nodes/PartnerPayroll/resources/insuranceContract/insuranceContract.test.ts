import { SandboxSession, runPartnerPayroll } from '../../../../support/fixtures';

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());

async function apiJson(path: string, token: string) {
	const response = await fetch(`${session.sandbox.apiBaseUrl}${path}`, {
		headers: { Authorization: `Bearer ${token}` },
	});
	return (await response.json()) as { contracts: object[] };
}

describe('insuranceContract', () => {
	it.each([
		['getHealthInsurance', '/companies/FR1001/health-insurance-contracts'],
		['getProvidentFund', '/companies/FR1001/provident-fund-contracts'],
	])(
		'%s: one item per contract, nulls kept, with the company of the token',
		async (operation, path) => {
			const token = await session.token('FR1001');
			const items = await runPartnerPayroll(
				{ resource: 'insuranceContract', operation },
				session.accessToken(token),
			);
			const { contracts } = await apiJson(path, token);
			expect(contracts.length).toBeGreaterThan(1);
			expect(items.map((item) => item.json)).toEqual(
				contracts.map((contract) => ({ companyId: 'FR1001', ...contract })),
			);
			expect(items.some((item) => Object.values(item.json).includes(null))).toBe(true);
		},
	);

	it('missing health-insurance scope is named', async () => {
		const token = await session.token('FR1001', ['accounting:read']);
		await expect(
			runPartnerPayroll(
				{ resource: 'insuranceContract', operation: 'getProvidentFund' },
				session.accessToken(token),
			),
		).rejects.toMatchObject({ httpCode: '403', message: 'Missing scope "health-insurance:read"' });
	});
});
