import type {
	ICredentialDataDecryptedObject,
	ILoadOptionsFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { PartnerPayrollPartnerApi } from '../../../credentials/PartnerPayrollPartnerApi.credentials';
import { testCredential } from '../../support/credential-tester';
import { SandboxSession, partnerPayroll, runPartnerPayroll, sha256 } from '../../support/fixtures';
import { binaryBytes } from '../../support/n8n-harness';

// One Partner API credential for many client companies: each item names its company, and each
// request carries that company's token, checked in the sandbox's request log.

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());

type Row = { companyId: string; label: string; accessToken: string };

const COMPANIES = ['FR1001', 'FR1002', 'ES2001', 'GB3001'];
const tokenOf = (row: Row) => row.accessToken.slice(row.companyId.length + 1);
const revoke = async (row: Row) =>
	await session.control('POST', '/tokens/revoke', { token: tokenOf(row) });
const itemsFor = (companyIds: string[]): INodeExecutionData[] =>
	companyIds.map((companyId) => ({ json: { companyId } }));
const perItemCompany = { companyId: '={{ $json.companyId }}' };

/** Every API request of the log, with the company in its path and the company of its token. */
const apiRequests = async () => await session.apiRequestCompanies();

/** What n8n's editor stores after deleting row `index` and saving: tokens given back by position. */
const deleteRowInEditor = (index: number) => (rows: Row[]) =>
	rows
		.filter((_, position) => position !== index)
		.map((kept, position) => ({ ...kept, accessToken: rows[position].accessToken }));

describe('Partner API credential: one credential, many companies', () => {
	it("reads each item's company with that company's own token", async () => {
		const credentials = await session.partner(COMPANIES);
		const order = ['ES2001', 'FR1001', 'GB3001', 'FR1002', 'FR1001'];
		const items = await runPartnerPayroll(
			{ resource: 'payroll', operation: 'getStatus', month: '202610', ...perItemCompany },
			credentials,
			{ items: itemsFor(order) },
		);
		expect(items.map((item) => [item.json.companyId, item.json.status, item.pairedItem])).toEqual(
			order.map((companyId, index) => [companyId, 'completed', { item: index }]),
		);
		const logged = await apiRequests();
		expect(logged).toHaveLength(order.length);
		for (const request of logged) expect(request.tokenCompany).toBe(request.pathCompany);
	});

	it("downloads each company's payment file, byte for byte", async () => {
		const credentials = await session.partner(COMPANIES);
		const items = await runPartnerPayroll(
			{ resource: 'payroll', operation: 'downloadPaymentFile', month: '202610', ...perItemCompany },
			credentials,
			{ items: itemsFor(['FR1002', 'ES2001']) },
		);
		for (const [index, companyId] of ['FR1002', 'ES2001'].entries()) {
			expect(sha256(binaryBytes(items[index]))).toBe(
				sha256(session.sandbox.seed.paymentFile(companyId, '202610')),
			);
		}
		for (const request of await apiRequests())
			expect(request.tokenCompany).toBe(request.pathCompany);
	});

	it("downloads a listed UK document with the token of the document's company", async () => {
		const credentials = await session.partner(['FR1001', 'GB3001']);
		const items = await runPartnerPayroll(
			{
				resource: 'document',
				operation: 'getIncomeTaxDocuments',
				companyId: 'GB3001',
				options: { downloadFiles: true },
			},
			credentials,
		);
		expect(items.length).toBeGreaterThan(0);
		expect(items.every((item) => item.binary?.data?.mimeType === 'application/pdf')).toBe(true);
		const logged = await apiRequests();
		expect(logged.length).toBeGreaterThan(items.length);
		for (const request of logged)
			expect([request.pathCompany, request.tokenCompany]).toEqual(['GB3001', 'GB3001']);
	});

	it.each([
		['empty', '', /^Company is empty/],
		[
			'not in the credential',
			'GB3001',
			/Company GB3001 is not in the credential's company list \(2 companies\)/,
		],
	])('refuses a company that is %s before any request', async (_case, companyId, message) => {
		const credentials = await session.partner(['FR1001', 'FR1002']);
		await session.clearRequests();
		await expect(
			runPartnerPayroll({ resource: 'company', operation: 'get', companyId }, credentials),
		).rejects.toThrow(message);
		expect(await session.requests()).toEqual([]);
	});

	it('after a row was deleted in the editor, each company is served with its own token; only the company whose token n8n dropped fails, named', async () => {
		const credentials = await session.partner(COMPANIES, deleteRowInEditor(1));
		await session.clearRequests();
		const items = await runPartnerPayroll(
			{ resource: 'company', operation: 'get', ...perItemCompany },
			credentials,
			{ items: itemsFor(['FR1001', 'ES2001', 'GB3001']), continueOnFail: true },
		);
		expect(items[0].json).toMatchObject({ id: 'FR1001' });
		expect(items[1].json).toMatchObject({ id: 'ES2001' });
		expect(items[2].json.error).toMatch(/no row holds the token of company GB3001 any more/);
		expect(await apiRequests()).toEqual([
			{ pathCompany: 'FR1001', tokenCompany: 'FR1001', status: 200 },
			{ pathCompany: 'ES2001', tokenCompany: 'ES2001', status: 200 },
		]);
	});

	it("a revoked token fails its own company's item only", async () => {
		const credentials = await session.partner(['FR1001', 'FR1002']);
		const rows = (credentials.partnerPayrollPartnerApi.companies as { company: Row[] }).company;
		await revoke(rows[1]);
		const items = await runPartnerPayroll(
			{ resource: 'company', operation: 'get', ...perItemCompany },
			credentials,
			{ items: itemsFor(['FR1001', 'FR1002', 'FR1001']), continueOnFail: true },
		);
		expect(items.map((item) => (item.json.error ? 'failed' : item.json.id))).toEqual([
			'FR1001',
			'failed',
			'FR1001',
		]);
		expect(String(items[1].json.error)).toMatch(/invalid or has been revoked/);
		expect(JSON.stringify(items)).not.toContain(tokenOf(rows[1]));
	});

	it("Company → Get Connection shows the chosen company's own connection", async () => {
		const credentials = await session.partner(COMPANIES);
		const items = await runPartnerPayroll(
			{ resource: 'company', operation: 'getConnection', ...perItemCompany },
			credentials,
			{ items: itemsFor(['FR1002', 'GB3001']) },
		);
		expect(
			items.map((item) => [item.json.companyId, item.json.clientId, item.json.active]),
		).toEqual([
			['FR1002', 'n8n-local', true],
			['GB3001', 'n8n-local', true],
		]);
	});

	it("lists the credential's companies by id and label, never a token, and marks a broken row", async () => {
		const credentials = await session.partner(COMPANIES, deleteRowInEditor(2));
		const options = await partnerPayroll.methods!.loadOptions!.listPartnerCompanies.call({
			getCredentials: async () => credentials.partnerPayrollPartnerApi,
		} as unknown as ILoadOptionsFunctions);
		expect(options.map(({ name, value }) => [name, value])).toEqual([
			['FR1001 (Client FR1001)', 'FR1001'],
			['FR1002 (Client FR1002)', 'FR1002'],
			['GB3001 (Client GB3001): not usable', 'GB3001'],
		]);
		expect(JSON.stringify(options)).not.toMatch(/sbx_/);
	});
});

describe('Partner API credential: its Test', () => {
	const credential = new PartnerPayrollPartnerApi();
	const dataOf = (credentials: Record<string, ICredentialDataDecryptedObject>) =>
		credentials.partnerPayrollPartnerApi;

	it("passes when every company's token is active and its own, naming them", async () => {
		const result = await testCredential(credential, dataOf(await session.partner(COMPANIES)));
		expect(result).toEqual({
			status: 'OK',
			message: `All 4 companies are connected, each with its own token: ${COMPANIES.map((id) => `${id} (Client ${id})`).join(', ')}`,
		});
	});

	it('names a token pasted under the wrong company, a revoked one and a broken row, and counts the rest', async () => {
		let issued: Row[] = [];
		const credentials = await session.partner(COMPANIES, (rows) => {
			issued = rows;
			return [
				rows[0],
				// FR1001's token pasted in FR1002's row, as FR1002's.
				{ ...rows[1], accessToken: `FR1002:${tokenOf(rows[0])}` },
				rows[2],
				{ ...rows[3], accessToken: tokenOf(rows[3]) },
			];
		});
		await revoke(issued[2]);
		const result = await testCredential(credential, dataOf(credentials));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^1 of 4 companies are connected\./);
		expect(result.message).toContain(
			'FR1002 (Client FR1002): the token is for company FR1001, not FR1002',
		);
		expect(result.message).toContain('ES2001 (Client ES2001): The token is not active');
		expect(result.message).toContain(
			'entry 4 (GB3001, Client GB3001): its Access Token is not bound to a company',
		);
		expect(result.message).not.toMatch(/sbx_/);
	});

	it('after a row was deleted in the editor, names exactly the company whose token n8n dropped', async () => {
		const credentials = await session.partner(COMPANIES, deleteRowInEditor(1));
		const result = await testCredential(credential, dataOf(credentials));
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^2 of 3 companies are connected\. [^|]*$/),
		});
		expect(result.message).toContain(
			'entry 3 (GB3001, Client GB3001): no row holds the token of company GB3001 any more',
		);
		expect(result.message).not.toMatch(/sbx_/);
	});

	it('says what to do with an empty list', async () => {
		const result = await testCredential(credential, dataOf(await session.partner([])));
		expect(result).toMatchObject({
			status: 'Error',
			message: expect.stringMatching(/^The company list is empty/),
		});
	});
});
