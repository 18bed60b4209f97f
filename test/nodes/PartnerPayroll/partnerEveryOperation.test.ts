import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { SandboxSession, runPartnerPayroll, sha256 } from '../../support/fixtures';
import { binaryBytes } from '../../support/n8n-harness';

// A partner's whole client list behind one Partner API credential: every operation over the 300
// companies of the sandbox (its seeded ones and 296 generated ones), each item naming its company.
// The sandbox's request log says which company's token each request carried.

// Hundreds of requests per test: a bound for a loaded machine, not a performance claim.
jest.setTimeout(120_000);

const session = new SandboxSession();
const MONTH = '202610';

interface SeedCompany {
	id: string;
	country: 'FR' | 'ES' | 'GB';
}

let companies: SeedCompany[];
let credentials: Awaited<ReturnType<SandboxSession['partner']>>;

beforeAll(async () => {
	await session.start();
	await session.control('POST', '/reset', { generatedCompanies: 296 });
	companies = ((await session.control('GET', '/seed')) as { companies: SeedCompany[] }).companies;
	credentials = await session.partner(companies.map((company) => company.id));
});
afterAll(async () => await session.stop());

const idsOf = (country?: SeedCompany['country']) =>
	companies.filter((company) => !country || company.country === country).map(({ id }) => id);
const itemsFor = (companyIds: string[]): INodeExecutionData[] =>
	companyIds.map((companyId) => ({ json: { companyId } }));

/** Runs one operation over the companies, and returns its items and the API requests it sent. */
async function runOver(
	companyIds: string[],
	parameters: INodeParameters,
	items = itemsFor(companyIds),
) {
	await session.clearRequests();
	const output = await runPartnerPayroll(
		{ companyId: '={{ $json.companyId }}', ...parameters },
		credentials,
		{ items },
	);
	return { output, requests: await session.apiRequestCompanies() };
}

/** Every request carried the token of the company in its path, and every company was asked. */
function expectOwnTokens(
	requests: Awaited<ReturnType<typeof runOver>>['requests'],
	companyIds: string[],
) {
	const pathCompanies = requests.map((request) => request.pathCompany);
	expect(requests.map((request) => request.tokenCompany)).toEqual(pathCompanies);
	expect(new Set(pathCompanies)).toEqual(new Set(companyIds));
	expect(requests.every((request) => request.status < 400)).toBe(true);
}

const companyOf = (item: INodeExecutionData) => (item.json as IDataObject).companyId;

describe('one Partner API credential, 300 companies, every operation', () => {
	it('has 300 companies of three countries', () => {
		expect(companies).toHaveLength(300);
		expect(new Set(companies.map((company) => company.country))).toEqual(
			new Set(['FR', 'ES', 'GB']),
		);
	});

	it.each([
		['company', 'get', undefined],
		['payroll', 'getStatus', undefined],
		['company', 'getFrench', 'FR'],
		['accounting', 'getEntries', 'FR'],
		['insuranceContract', 'getHealthInsurance', 'FR'],
		['insuranceContract', 'getProvidentFund', 'FR'],
		['document', 'getAutoEnrolmentDocuments', 'GB'],
	] as const)('%s → %s', async (resource, operation, country) => {
		const companyIds = idsOf(country);
		const { output, requests } = await runOver(companyIds, { resource, operation, month: MONTH });
		expectOwnTokens(requests, companyIds);
		expect(new Set(output.map((item) => item.pairedItem))).not.toContain(undefined);
		expect(output.every((item) => item.json && !('error' in item.json))).toBe(true);
	});

	it("payroll → downloadPaymentFile: each company's own file, byte for byte", async () => {
		const companyIds = idsOf();
		const { output, requests } = await runOver(companyIds, {
			resource: 'payroll',
			operation: 'downloadPaymentFile',
			month: MONTH,
		});
		expectOwnTokens(requests, companyIds);
		expect(output.map(companyOf)).toEqual(companyIds);
		for (const [index, companyId] of companyIds.entries()) {
			expect(sha256(binaryBytes(output[index]))).toBe(
				sha256(session.sandbox.seed.paymentFile(companyId, MONTH)),
			);
		}
	});

	it('accounting → downloadCsv: one file per French company', async () => {
		const companyIds = idsOf('FR');
		const { output, requests } = await runOver(companyIds, {
			resource: 'accounting',
			operation: 'downloadCsv',
			month: MONTH,
		});
		expectOwnTokens(requests, companyIds);
		expect(output.map(companyOf)).toEqual(companyIds);
		expect(output.every((item) => item.binary?.data?.mimeType.startsWith('text/csv'))).toBe(true);
	});

	it('document → getIncomeTaxDocuments with Download Files, then Download of each listed documentUrl', async () => {
		const companyIds = idsOf('GB');
		const listed = await runOver(companyIds, {
			resource: 'document',
			operation: 'getIncomeTaxDocuments',
			options: { downloadFiles: true },
		});
		expectOwnTokens(listed.requests, companyIds);
		// A listed document names no company: its item is paired with the company's input item.
		const companyOfListed = (item: INodeExecutionData) =>
			companyIds[(item.pairedItem as { item: number }).item];
		expect(new Set(listed.output.map(companyOfListed))).toEqual(new Set(companyIds));
		expect(listed.output.every((item) => item.binary?.data?.mimeType === 'application/pdf')).toBe(
			true,
		);

		const downloaded = await runOver(
			companyIds,
			{ resource: 'document', operation: 'download', documentId: '={{ $json.documentUrl }}' },
			listed.output.map((item) => ({ json: { ...item.json, companyId: companyOfListed(item) } })),
		);
		expectOwnTokens(downloaded.requests, companyIds);
		for (const [index, item] of downloaded.output.entries()) {
			const listedItem = listed.output[index];
			const documentId = String(listedItem.json.documentId);
			expect(sha256(binaryBytes(item))).toBe(
				sha256(session.sandbox.seed.document(companyOfListed(listedItem), documentId)),
			);
			expect(binaryBytes(item)).toEqual(binaryBytes(listedItem));
		}
	});

	it("company → getConnection: each company's token is introspected as that company's", async () => {
		const companyIds = idsOf();
		await session.clearRequests();
		const output = await runPartnerPayroll(
			{ resource: 'company', operation: 'getConnection', companyId: '={{ $json.companyId }}' },
			credentials,
			{ items: itemsFor(companyIds) },
		);
		expect(output.map((item) => item.json.companyId)).toEqual(companyIds);
		expect(output.every((item) => item.json.active === true)).toBe(true);
		const introspections = (await session.requests()).filter((request) =>
			request.path.endsWith('/introspect'),
		);
		expect(introspections).toHaveLength(companyIds.length);
	});

	it('billingDeclaration → create: one declaration recorded for each company, for that company', async () => {
		const companyIds = idsOf();
		const { output, requests } = await runOver(companyIds, {
			resource: 'billingDeclaration',
			operation: 'create',
			monthOfApplication: MONTH,
			quantityByProducts: { product: [{ productName: 'Payroll', quantity: 1 }] },
		});
		expectOwnTokens(requests, companyIds);
		expect(output.map(companyOf)).toEqual(companyIds);
		for (const companyId of [companyIds[0], companyIds[150], companyIds[299]]) {
			const stored = (await session.control(
				'GET',
				`/billing-declarations?companyId=${companyId}`,
			)) as unknown[];
			expect(stored).toHaveLength(1);
		}
	});
});
