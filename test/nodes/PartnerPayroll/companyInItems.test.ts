import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { SandboxSession, failureOf, runPartnerPayroll } from '../../support/fixtures';
import type { TestCredentials } from '../../support/n8n-harness';

// With many companies in one run, each item says which company it is for: every output item starts
// with its company, and with the Partner API credential every item's error names the company and its
// label in its first line, in Continue On Fail's item and in the error n8n shows.

// Timeouts and resets are sent again before the item fails: several seconds on a loaded machine.
jest.setTimeout(60_000);

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());

type Row = { companyId: string; label: string; accessToken: string };

const COMPANIES = ['FR1001', 'FR1002', 'ES2001', 'GB3001'];
const MONTH = '202610';
const perItemCompany = { companyId: '={{ $json.companyId }}' };
const rowsOf = (credentials: TestCredentials) =>
	(credentials.partnerPayrollPartnerApi.companies as { company: Row[] }).company;
const tokenOf = (row: Row) => row.accessToken.slice(row.companyId.length + 1);

/**
 * Runs one operation with Continue On Fail over an item that works (FR1001's unless `working` says
 * otherwise) and an item for `companyId` that fails: returns the failed item's JSON and error.
 */
async function failedItemOf(
	credentials: TestCredentials,
	companyId: string,
	parameters: INodeParameters,
	working: IDataObject = { companyId: 'FR1001' },
	failing: IDataObject = {},
) {
	const items = await runPartnerPayroll({ ...parameters, ...perItemCompany }, credentials, {
		items: [{ json: working }, { json: { companyId, ...failing } }],
		continueOnFail: true,
	});
	const ofItem = (index: number) =>
		items.filter((item) => (item.pairedItem as { item: number }).item === index);
	expect(ofItem(0).length).toBeGreaterThan(0);
	for (const item of ofItem(0)) {
		expect(item.json).toMatchObject({ companyId: working.companyId });
		expect(item.json.error).toBeUndefined();
	}
	const [failed, ...more] = ofItem(1);
	expect(more).toEqual([]);
	// No token, whether in the item, its error or the description.
	const tokens = rowsOf(credentials).map(tokenOf);
	const shown = JSON.stringify({ items, description: failed.error?.description });
	for (const token of tokens) expect(shown).not.toContain(token);
	return { json: failed.json, error: failed.error! };
}

const getCompany = { resource: 'company', operation: 'get' };

describe("Partner API credential: an item's error names its company and label first", () => {
	it('a revoked token (401): in the item of Continue On Fail and in the error n8n shows, the description kept', async () => {
		const credentials = await session.partner(COMPANIES);
		await session.control('POST', '/tokens/revoke', { token: tokenOf(rowsOf(credentials)[1]) });
		const { json, error } = await failedItemOf(credentials, 'FR1002', getCompany);
		const message =
			'Company FR1002 (Client FR1002): The access token is invalid or has been revoked';
		expect(json).toEqual({ error: message });
		expect(error.message).toBe(message);
		expect(error.description).toMatch(
			/^Reconnect the Partner Payroll credential .* The service answered: /,
		);

		const shown = await failureOf(
			runPartnerPayroll({ ...getCompany, companyId: 'FR1002' }, credentials),
		);
		expect(shown.message).toBe(message);
		expect(shown.description).toBe(error.description);
	});

	it('a replaced token (the company connected again elsewhere): 401', async () => {
		const credentials = await session.partner(COMPANIES);
		await session.token('ES2001'); // the client's new token for ES2001 replaces the stored one
		const { json } = await failedItemOf(credentials, 'ES2001', getCompany);
		expect(String(json.error).split('\n')[0]).toBe(
			'Company ES2001 (Client ES2001): The access token is invalid or has been revoked',
		);
	});

	it('an inactive token at introspection (Get Connection)', async () => {
		const credentials = await session.partner(COMPANIES);
		await session.control('POST', '/tokens/revoke', { token: tokenOf(rowsOf(credentials)[3]) });
		const { json, error } = await failedItemOf(credentials, 'GB3001', {
			resource: 'company',
			operation: 'getConnection',
		});
		expect(json.error).toBe(
			'Company GB3001 (Client GB3001): The access token is invalid or has been revoked',
		);
		expect(error.description).toContain('The authorization server reports the token');
	});

	it('a missing scope (403)', async () => {
		const narrow = await session.token('FR1002', ['accounting:read']);
		const credentials = await session.partner(['FR1001'], (rows) => [
			...rows,
			{ companyId: 'FR1002', label: 'Boulangerie Martin', accessToken: `FR1002:${narrow}` },
		]);
		const { json, error } = await failedItemOf(credentials, 'FR1002', {
			resource: 'payroll',
			operation: 'downloadPaymentFile',
			month: MONTH,
		});
		expect(json.error).toBe(
			'Company FR1002 (Boulangerie Martin): Missing scope "payment-files:read"',
		);
		expect(error.description).toContain('The service answered:');
	});

	it('a 404 (a document the company does not have)', async () => {
		const credentials = await session.partner(COMPANIES);
		const documentUrl = await listedDocumentUrl(credentials, 'GB3001');
		const { json, error } = await failedItemOf(
			credentials,
			'GB3001',
			{ resource: 'document', operation: 'download', documentId: '={{ $json.documentId }}' },
			{ companyId: 'GB3001', documentId: documentUrl },
			{ documentId: 'no-such-document' },
		);
		expect(String(json.error)).toMatch(/^Company GB3001 \(Client GB3001\): Not found: /);
		expect(error.description).toContain('The service answered:');
	});

	it('a country the operation does not serve', async () => {
		const credentials = await session.partner(COMPANIES);
		const { json, error } = await failedItemOf(credentials, 'ES2001', {
			resource: 'accounting',
			operation: 'getEntries',
			month: MONTH,
		});
		expect(String(json.error)).toMatch(/^Company ES2001 \(Client ES2001\): Not found: /);
		expect(error.description).toMatch(/^This operation serves companies in France \(FR\) only/);
	});

	it('a 5xx after every attempt', async () => {
		const credentials = await session.partner(COMPANIES);
		await session.injectFault({
			path: '/companies/FR1002',
			type: 'status',
			status: 503,
			retryAfter: 0,
			count: 100,
		});
		const { json } = await failedItemOf(credentials, 'FR1002', getCompany);
		expect(json.error).toBe(
			'Company FR1002 (Client FR1002): The Partner Payroll service failed (HTTP 503)',
		);
	});

	it('a timeout on every attempt', async () => {
		const credentials = await session.partner(COMPANIES);
		await session.injectFault({
			path: '/companies/FR1002',
			type: 'delay',
			delayMs: 2000,
			count: 100,
		});
		const { json } = await failedItemOf(credentials, 'FR1002', {
			...getCompany,
			requestOptions: { timeout: 200 },
		});
		expect(json.error).toBe(
			'Company FR1002 (Client FR1002): Could not get a complete answer from the Partner Payroll API (timed out)',
		);
	});

	it('a connection reset on every attempt', async () => {
		const credentials = await session.partner(COMPANIES);
		await session.injectFault({ path: '/companies/FR1002', type: 'reset', count: 100 });
		const { json } = await failedItemOf(credentials, 'FR1002', getCompany);
		expect(json.error).toBe(
			'Company FR1002 (Client FR1002): Could not get a complete answer from the Partner Payroll API (connection reset)',
		);
	});

	it("a refused row of the credential's list already names the company and its label: said once", async () => {
		const credentials = await session.partner(COMPANIES, (rows) => [
			rows[0],
			{ ...rows[1], accessToken: rows[2].accessToken },
		]);
		const { json } = await failedItemOf(credentials, 'FR1002', getCompany);
		expect(String(json.error)).toMatch(
			/^The company list's entry 2 \(FR1002, Client FR1002\) holds the token of company ES2001, not of FR1002/,
		);
	});

	it('a company not in the list has no label: its id is named, once', async () => {
		const credentials = await session.partner(['FR1001']);
		const { json } = await failedItemOf(credentials, 'GB3001', getCompany);
		expect(String(json.error)).toMatch(/^Company GB3001 is not in the credential's company list/);
	});

	it("a billing item's check that stops the batch before anything is sent names that item's company", async () => {
		const credentials = await session.partner(COMPANIES);
		await session.clearRequests();
		const error = await failureOf(
			runPartnerPayroll(
				{
					resource: 'billingDeclaration',
					operation: 'create',
					monthOfApplication: '={{ $json.month }}',
					quantityByProducts: { product: [{ productName: 'Payroll', quantity: 3 }] },
					...perItemCompany,
				},
				credentials,
				{
					items: [
						{ json: { companyId: 'FR1001', month: MONTH } },
						{ json: { companyId: 'ES2001', month: '2026-13' } },
					],
				},
			),
		);
		expect(error.message).toMatch(
			/^Company ES2001 \(Client ES2001\): Nothing was sent: item 1 did not pass its checks/,
		);
		expect(await session.apiRequestCompanies()).toEqual([]);
	});

	it('with a one-company credential the wording stays as it was', async () => {
		const token = await session.token('FR1001');
		await session.control('POST', '/tokens/revoke', { token });
		const error = await failureOf(
			runPartnerPayroll({ ...getCompany, companyId: 'FR1001' }, session.accessToken(token)),
		);
		expect(error.message).toBe('The access token is invalid or has been revoked');
	});
});

/** Every operation with the company its item names (a UK one for the document operations). */
const OPERATIONS: Array<[string, INodeParameters, string]> = [
	['company → get', { resource: 'company', operation: 'get' }, 'FR1001'],
	['company → getFrench', { resource: 'company', operation: 'getFrench' }, 'FR1001'],
	['company → getConnection', { resource: 'company', operation: 'getConnection' }, 'FR1001'],
	['payroll → getStatus', { resource: 'payroll', operation: 'getStatus', month: MONTH }, 'FR1001'],
	[
		'payroll → downloadPaymentFile',
		{ resource: 'payroll', operation: 'downloadPaymentFile', month: MONTH },
		'FR1001',
	],
	[
		'accounting → getEntries',
		{ resource: 'accounting', operation: 'getEntries', month: MONTH },
		'FR1001',
	],
	[
		'accounting → downloadCsv with Parse Lines',
		{
			resource: 'accounting',
			operation: 'downloadCsv',
			month: MONTH,
			options: { parseLines: true },
		},
		'FR1001',
	],
	[
		'document → getIncomeTaxDocuments',
		{ resource: 'document', operation: 'getIncomeTaxDocuments' },
		'GB3001',
	],
	[
		'document → getAutoEnrolmentDocuments with Download Files',
		{
			resource: 'document',
			operation: 'getAutoEnrolmentDocuments',
			options: { downloadFiles: true },
		},
		'GB3001',
	],
	[
		'insuranceContract → getHealthInsurance',
		{ resource: 'insuranceContract', operation: 'getHealthInsurance' },
		'FR1001',
	],
	[
		'insuranceContract → getProvidentFund',
		{ resource: 'insuranceContract', operation: 'getProvidentFund' },
		'FR1001',
	],
	[
		'billingDeclaration → create',
		{
			resource: 'billingDeclaration',
			operation: 'create',
			monthOfApplication: MONTH,
			quantityByProducts: { product: [{ productName: 'Payroll', quantity: 3 }] },
		},
		'FR1001',
	],
];

/** The first listed document of GB3001, for Document → Download. */
async function listedDocumentUrl(credentials: TestCredentials, companyId: string) {
	const [listed] = await runPartnerPayroll(
		{ resource: 'document', operation: 'getIncomeTaxDocuments', companyId },
		credentials,
	);
	return String(listed.json.documentUrl);
}

const companyFieldsOf = (items: INodeExecutionData[]) =>
	items.map(({ json }) => ({ companyId: json.companyId, companyLabel: json.companyLabel }));

describe('every output item starts with its company', () => {
	it.each(OPERATIONS)(
		'%s: companyId and companyLabel with the Partner API credential',
		async (_name, parameters, companyId) => {
			const credentials = await session.partner(COMPANIES);
			const items = await runPartnerPayroll({ ...parameters, companyId }, credentials);
			expect(items.length).toBeGreaterThan(0);
			expect(companyFieldsOf(items)).toEqual(
				items.map(() => ({ companyId, companyLabel: `Client ${companyId}` })),
			);
			expect(Object.keys(items[0].json).slice(0, 2)).toEqual(['companyId', 'companyLabel']);
		},
	);

	it.each(OPERATIONS)(
		"%s: companyId with a one-company credential and an empty Company ID (the token's company)",
		async (_name, parameters, companyId) => {
			const items = await runPartnerPayroll(
				{ ...parameters, companyId: '' },
				session.accessToken(await session.token(companyId)),
			);
			expect(items.length).toBeGreaterThan(0);
			expect(companyFieldsOf(items)).toEqual(
				items.map(() => ({ companyId, companyLabel: undefined })),
			);
		},
	);

	it('document → download: the company of the documentUrl, with its label', async () => {
		const credentials = await session.partner(COMPANIES);
		const documentId = await listedDocumentUrl(credentials, 'GB3001');
		const items = await runPartnerPayroll(
			{ resource: 'document', operation: 'download', companyId: 'GB3001', documentId },
			credentials,
		);
		expect(companyFieldsOf(items)).toEqual([
			{ companyId: 'GB3001', companyLabel: 'Client GB3001' },
		]);

		const oneCompany = session.accessToken(await session.token('GB3001'));
		const [item] = await runPartnerPayroll(
			{ resource: 'document', operation: 'download', companyId: '', documentId },
			oneCompany,
		);
		expect(item.json.companyId).toBe('GB3001');
		expect(item.binary?.data?.mimeType).toBe('application/pdf');
	});

	it("a listing over several companies: each item is its own company's, in input order", async () => {
		const credentials = await session.partner(COMPANIES);
		const items = await runPartnerPayroll(
			{ resource: 'accounting', operation: 'getEntries', month: MONTH, ...perItemCompany },
			credentials,
			{ items: [{ json: { companyId: 'FR1002' } }, { json: { companyId: 'FR1001' } }] },
		);
		const byItem = (index: number) =>
			items.filter((item) => (item.pairedItem as { item: number }).item === index);
		expect(byItem(0).length).toBeGreaterThan(0);
		expect(byItem(1).length).toBeGreaterThan(0);
		expect(byItem(0).every((item) => (item.json as IDataObject).companyId === 'FR1002')).toBe(true);
		expect(byItem(1).every((item) => (item.json as IDataObject).companyId === 'FR1001')).toBe(true);
	});
});
