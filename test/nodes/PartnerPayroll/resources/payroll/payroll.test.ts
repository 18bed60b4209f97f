import { binaryBytes } from '../../../../support/n8n-harness';
import { SandboxSession, runPartnerPayroll, sha256 } from '../../../../support/fixtures';

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());

describe('payroll', () => {
	it('getStatus: completed month with its end date', async () => {
		const token = await session.token('FR1001');
		const [item] = await runPartnerPayroll(
			{ resource: 'payroll', operation: 'getStatus', companyId: 'FR1001', month: '202610' },
			session.accessToken(token),
		);
		expect(item.json).toEqual({
			companyId: 'FR1001',
			month: '202610',
			status: 'completed',
			executionEndDate: '2026-10-28T17:42:05.000Z',
		});
	});

	it('getStatus: not completed month has a null end date', async () => {
		const token = await session.token('FR1001');
		const [item] = await runPartnerPayroll(
			{ resource: 'payroll', operation: 'getStatus', companyId: 'FR1001', month: '2026-11' },
			session.accessToken(token),
		);
		expect(item.json).toEqual({
			companyId: 'FR1001',
			month: '202611',
			status: 'not_completed',
			executionEndDate: null,
		});
	});

	it.each([
		['2026-10-15', '202610'],
		['2026-10-31T23:30:00-02:00', '202610'],
		['2026-07', '202607'],
	])('normalises the month %p to date=%p', async (month, date) => {
		const token = await session.token('FR1001');
		await session.clearRequests();
		await runPartnerPayroll(
			{ resource: 'payroll', operation: 'getStatus', companyId: 'FR1001', month },
			session.accessToken(token),
		);
		const [request] = await session.requests();
		expect(request.query).toEqual({ date });
	});

	it.each(['202613', '1999-12', 'last month', ''])(
		'refuses the month %p before sending any request',
		async (month) => {
			const token = await session.token('FR1001');
			await session.clearRequests();
			await expect(
				runPartnerPayroll(
					{ resource: 'payroll', operation: 'getStatus', companyId: '', month },
					session.accessToken(token),
				),
			).rejects.toThrow(/^Month must be a month as YYYYMM/);
			expect(await session.requests()).toEqual([]);
		},
	);

	it('downloadPaymentFile: every byte, a built file name and the MIME type of the answer', async () => {
		const token = await session.token('FR1001');
		const [item] = await runPartnerPayroll(
			{
				resource: 'payroll',
				operation: 'downloadPaymentFile',
				companyId: 'FR1001',
				month: '202610',
			},
			session.accessToken(token),
		);
		const expected = session.sandbox.seed.paymentFile('FR1001', '202610');
		expect(sha256(binaryBytes(item))).toBe(sha256(expected));
		expect(item.binary!.data).toMatchObject({
			fileName: 'payment-file-FR1001-202610',
			mimeType: 'application/octet-stream',
		});
		expect(item.json).toEqual({
			companyId: 'FR1001',
			month: '202610',
			fileName: 'payment-file-FR1001-202610',
			mimeType: 'application/octet-stream',
			fileSize: expected.length,
		});
	});

	it('downloadPaymentFile: a custom binary field and the token company', async () => {
		const token = await session.token('ES2001');
		const [item] = await runPartnerPayroll(
			{
				resource: 'payroll',
				operation: 'downloadPaymentFile',
				month: '202609',
				binaryPropertyName: 'payment',
			},
			session.accessToken(token),
		);
		expect(Object.keys(item.binary!)).toEqual(['payment']);
		expect(sha256(binaryBytes(item, 'payment'))).toBe(
			sha256(session.sandbox.seed.paymentFile('ES2001', '202609')),
		);
		expect(item.json.companyId).toBe('ES2001');
	});

	it('downloadPaymentFile: the error body of a binary answer survives (missing scope)', async () => {
		const token = await session.token('FR1001', ['accounting:read']);
		await expect(
			runPartnerPayroll(
				{
					resource: 'payroll',
					operation: 'downloadPaymentFile',
					companyId: 'FR1001',
					month: '202610',
				},
				session.accessToken(token),
			),
		).rejects.toMatchObject({
			httpCode: '403',
			message: 'Missing scope "payment-files:read"',
			description: expect.stringContaining('reconnect'),
		});
	});
});
