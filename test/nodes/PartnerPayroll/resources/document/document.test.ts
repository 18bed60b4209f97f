import { binaryBytes } from '../../../../support/n8n-harness';
import { SandboxSession, runPartnerPayroll, sha256 } from '../../../../support/fixtures';

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());

const isPdf = (bytes: Buffer) => bytes.subarray(0, 5).toString('latin1') === '%PDF-';

describe('document', () => {
	it('getIncomeTaxDocuments: one item per document, fields untouched (the extra name too), with the company', async () => {
		const token = await session.token('GB3001');
		const items = await runPartnerPayroll(
			{ resource: 'document', operation: 'getIncomeTaxDocuments' },
			session.accessToken(token),
		);
		expect(items.map((item) => item.json.type).sort()).toEqual(['P11D', 'P45', 'P60', 'P60']);
		expect(items[0].json).toEqual({
			companyId: 'GB3001',
			documentId: expect.any(String),
			createdAt: expect.any(String),
			contractId: expect.any(String),
			type: expect.any(String),
			year: expect.any(String),
			month: expect.any(String),
			name: expect.stringMatching(/\.pdf$/),
			documentUrl: expect.stringMatching(
				/^\/companies\/GB3001\/contracts\/[^/]+\/documents\/[^/]+$/,
			),
		});
		expect(items.every((item) => item.binary === undefined)).toBe(true);
	});

	it('getAutoEnrolmentDocuments with Download Files: each PDF in its own item, bytes intact', async () => {
		const token = await session.token('GB3001');
		const items = await runPartnerPayroll(
			{
				resource: 'document',
				operation: 'getAutoEnrolmentDocuments',
				options: { downloadFiles: true, binaryPropertyName: 'pdf' },
			},
			session.accessToken(token),
		);
		expect(items.length).toBeGreaterThanOrEqual(2);
		for (const item of items) {
			expect(item.json).not.toHaveProperty('type');
			const bytes = binaryBytes(item, 'pdf');
			expect(isPdf(bytes)).toBe(true);
			expect(sha256(bytes)).toBe(
				sha256(session.sandbox.seed.document('GB3001', String(item.json.documentId))),
			);
			expect(item.binary!.pdf).toMatchObject({
				fileName: item.json.name,
				mimeType: 'application/pdf',
			});
		}
	});

	it('download by documentUrl as listed: the PDF with its name from Content-Disposition', async () => {
		const token = await session.token('GB3001');
		const credentials = session.accessToken(token);
		const [listed] = await runPartnerPayroll(
			{ resource: 'document', operation: 'getIncomeTaxDocuments' },
			credentials,
		);
		const [item] = await runPartnerPayroll(
			{ resource: 'document', operation: 'download', documentId: String(listed.json.documentUrl) },
			credentials,
		);
		const expected = session.sandbox.seed.document('GB3001', String(listed.json.documentId));
		expect(sha256(binaryBytes(item))).toBe(sha256(expected));
		expect(item.binary!.data).toMatchObject({
			fileName: listed.json.name,
			mimeType: 'application/pdf',
		});
		expect(item.json).toMatchObject({
			companyId: 'GB3001',
			documentId: listed.json.documentId,
			fileSize: expected.length,
		});
	});

	it('download by id works too, and an absolute URL on the API host', async () => {
		const token = await session.token('GB3001');
		const credentials = session.accessToken(token);
		const [listed] = await runPartnerPayroll(
			{ resource: 'document', operation: 'getAutoEnrolmentDocuments' },
			credentials,
		);
		for (const documentId of [
			String(listed.json.documentId),
			`${session.sandbox.apiBaseUrl}${listed.json.documentUrl}`,
		]) {
			const [item] = await runPartnerPayroll(
				{ resource: 'document', operation: 'download', documentId },
				credentials,
			);
			expect(isPdf(binaryBytes(item))).toBe(true);
		}
	});

	it.each([
		[
			'another host',
			'https://attacker.example.net/api/v1/companies/GB3001/documents/gb3001-p60-2025-001',
			/outside the API base URL/,
		],
		[
			'another company',
			'/companies/FR1001/contracts/c/documents/gb3001-p60-2025-001',
			/document of company "FR1001"/,
		],
		['not a document path', '/companies/GB3001/payment-files', /not a document path/],
		['empty', '  ', /Document ID is empty/],
	])(
		'refuses a documentId pointing at %s, sending no request with the token',
		async (_label, documentId, message) => {
			const token = await session.token('GB3001');
			await session.clearRequests();
			await expect(
				runPartnerPayroll(
					{ resource: 'document', operation: 'download', companyId: 'GB3001', documentId },
					session.accessToken(token),
				),
			).rejects.toThrow(message);
			expect(await session.requests()).toEqual([]);
		},
	);

	it('a document never listed: the service 404 with its details', async () => {
		const token = await session.token('GB3001');
		await expect(
			runPartnerPayroll(
				{
					resource: 'document',
					operation: 'download',
					companyId: 'GB3001',
					documentId: 'gb3001-payslip-202607-001',
				},
				session.accessToken(token),
			),
		).rejects.toMatchObject({ httpCode: '404', message: expect.stringMatching(/^Not found: /) });
	});

	it('UK listing for a French company: names the country the operation serves', async () => {
		const token = await session.token('FR1001');
		await expect(
			runPartnerPayroll(
				{ resource: 'document', operation: 'getIncomeTaxDocuments' },
				session.accessToken(token),
			),
		).rejects.toMatchObject({
			httpCode: '404',
			description: expect.stringContaining('the United Kingdom (GB) only'),
		});
	});
});

describe('a documentUrl names its company', () => {
	it('downloads from the listed path itself, with no Company ID and no token lookup', async () => {
		const token = await session.token('GB3001');
		const [listed] = await runPartnerPayroll(
			{ resource: 'document', operation: 'getAutoEnrolmentDocuments', companyId: 'GB3001' },
			session.accessToken(token),
		);
		await session.clearRequests();
		const [item] = await runPartnerPayroll(
			{ resource: 'document', operation: 'download', documentId: String(listed.json.documentUrl) },
			session.accessToken(token),
		);
		expect(item.json).toMatchObject({ companyId: 'GB3001', documentId: listed.json.documentId });
		expect(
			(await session.requests()).map((request) => `${request.method} ${request.path}`),
		).toEqual([`GET /api/v1${String(listed.json.documentUrl)}`]);
	});
});

describe('a document is a PDF', () => {
	it('an answer that does not start with %PDF- is refused, not stored, not retried', async () => {
		const token = await session.token('GB3001');
		const [listed] = await runPartnerPayroll(
			{ resource: 'document', operation: 'getIncomeTaxDocuments', companyId: 'GB3001' },
			session.accessToken(token),
		);
		const path = `/api/v1${String(listed.json.documentUrl)}`;
		await session.injectFault({ path, type: 'malformed' });
		await session.clearRequests();
		await expect(
			runPartnerPayroll(
				{
					resource: 'document',
					operation: 'download',
					documentId: String(listed.json.documentUrl),
				},
				session.accessToken(token),
			),
		).rejects.toThrow(
			'The Partner Payroll API answered with a file that does not start with %PDF- instead of the file',
		);
		expect((await session.requests()).filter((request) => request.path === path)).toHaveLength(1);
	});
});
