import { SandboxSession, runPartnerPayroll } from '../../../../support/fixtures';

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());

const products = {
	product: [
		{ productName: 'Payroll', quantity: 12 },
		{ productName: 'Meal vouchers', quantity: 240.5 },
	],
};

describe('billingDeclaration', () => {
	it('create: 204 becomes one item confirming what was declared, and the service stored it', async () => {
		const token = await session.token('FR1001');
		const items = await runPartnerPayroll(
			{
				resource: 'billingDeclaration',
				operation: 'create',
				monthOfApplication: '2026-10',
				quantityByProducts: products,
			},
			session.accessToken(token),
		);
		expect(items).toEqual([
			{
				json: {
					declared: true,
					companyId: 'FR1001',
					monthOfApplication: '202610',
					quantityByProducts: [
						{ productName: 'Payroll', quantity: 12 },
						{ productName: 'Meal vouchers', quantity: 240.5 },
					],
					serviceAnswer: {},
				},
				pairedItem: { item: 0 },
			},
		]);
		const stored = (await session.control(
			'GET',
			'/billing-declarations?companyId=FR1001',
		)) as Array<Record<string, unknown>>;
		expect(stored).toHaveLength(1);
		expect(stored[0]).toMatchObject({
			monthOfApplication: '202610',
			quantityByProducts: items[0].json.quantityByProducts,
		});
	});

	it('create with the deprecated Employees by Products option', async () => {
		const token = await session.token('GB3001');
		const [item] = await runPartnerPayroll(
			{
				resource: 'billingDeclaration',
				operation: 'create',
				monthOfApplication: '202611',
				options: {
					employeesByProducts: { product: [{ productName: 'Payroll', numberOfEmployees: 4 }] },
				},
			},
			session.accessToken(token),
		);
		expect(item.json).toEqual({
			declared: true,
			companyId: 'GB3001',
			monthOfApplication: '202611',
			employeesByProducts: [{ productName: 'Payroll', numberOfEmployees: 4 }],
			serviceAnswer: {},
		});
		const stored = (await session.control(
			'GET',
			'/billing-declarations?companyId=GB3001',
		)) as unknown[];
		expect(stored).toHaveLength(1);
	});

	it.each([
		[
			{ monthOfApplication: '2026', quantityByProducts: products },
			/^Month of Application must be a month as YYYYMM/,
		],
		[{ monthOfApplication: '202610' }, /needs at least one product/],
		[
			{
				monthOfApplication: '202610',
				quantityByProducts: { product: [{ productName: ' ', quantity: 1 }] },
			},
			/Product Name of product 1 is empty/,
		],
		[
			{
				monthOfApplication: '202610',
				quantityByProducts: products,
				options: {
					employeesByProducts: { product: [{ productName: 'Payroll', numberOfEmployees: 1 }] },
				},
			},
			/not both/,
		],
	])('refuses %p before any request', async (parameters, message) => {
		const token = await session.token('FR1001');
		await session.clearRequests();
		await expect(
			runPartnerPayroll(
				{ resource: 'billingDeclaration', operation: 'create', companyId: 'FR1001', ...parameters },
				session.accessToken(token),
			),
		).rejects.toThrow(message);
		expect(await session.requests()).toEqual([]);
	});

	it('a company API key is not a partner: the service refusal is kept', async () => {
		const token = await session.token('FR1001', ['accounting:read'], 'apiKey');
		await expect(
			runPartnerPayroll(
				{
					resource: 'billingDeclaration',
					operation: 'create',
					companyId: 'FR1001',
					monthOfApplication: '202610',
					quantityByProducts: products,
				},
				session.accessToken(token),
			),
		).rejects.toMatchObject({ httpCode: '403', message: expect.stringContaining('partners') });
	});
});
