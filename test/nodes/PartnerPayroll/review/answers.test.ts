import { startStubService, type StubAnswer, type StubRequest } from '../../../support/stub-service';
import { failureOf, runPartnerPayroll } from '../../../support/fixtures';

// Review node.md findings 1 and 2: answers of a shape the spec does not show, from a service the
// test plays over real HTTP.

const PDF = Buffer.from('%PDF-1.4\n% a listed document\n%%EOF\n');
const json = (body: string, status = 200): StubAnswer => ({
	status,
	bytes: Buffer.from(body),
	headers: { 'Content-Type': 'application/json' },
});

let answers: Record<string, StubAnswer> = {};
let requests: StubRequest[] = [];
let service: { url: string; close(): Promise<void> };
beforeAll(async () => {
	service = await startStubService((request) => {
		requests.push(request);
		return answers[request.path] ?? json('{"error":"Not found","code":404}', 404);
	});
});
afterAll(async () => await service.close());
beforeEach(() => {
	answers = {};
	requests = [];
});

const credentials = () => ({
	partnerPayrollApi: {
		baseUrl: `${service.url}/api`,
		accessToken: 'dummy-token',
		authServerUrl: `${service.url}/oauth`,
	},
});

const listing = (document: Record<string, unknown>) =>
	json(
		JSON.stringify({
			documents: [
				{ documentId: 'd1', createdAt: '2026-04-06T00:00:00Z', type: 'P60', ...document },
			],
		}),
	);

describe('finding 1: a listed documentUrl in another shape', () => {
	const downloadFiles = {
		resource: 'document',
		operation: 'getIncomeTaxDocuments',
		companyId: 'GB1',
		options: { downloadFiles: true },
	};

	it.each([
		'/api/companies/GB1/documents/d1',
		'https://files.example.org/GB1/d1.pdf',
		'/companies/GB1/documents/d1?download=1',
	])('%p: the PDF comes from the documented path of its id', async (documentUrl) => {
		answers['/api/companies/GB1/income-taxes-documents'] = listing({ documentUrl });
		answers['/api/companies/GB1/documents/d1'] = { status: 200, bytes: PDF };
		const [item] = await runPartnerPayroll(downloadFiles, credentials());
		expect(item.json.documentUrl).toBe(documentUrl);
		expect(Buffer.from(item.binary!.data.data, 'base64')).toEqual(PDF);
		expect(requests.map((request) => request.path)).toEqual([
			'/api/companies/GB1/income-taxes-documents',
			'/api/companies/GB1/documents/d1',
		]);
	});

	it('a listed document that cannot be fetched names the listed documentUrl, not Document ID', async () => {
		answers['/api/companies/GB1/income-taxes-documents'] = listing({
			documentId: '',
			documentUrl: 'https://files.example.org/GB1/d1.pdf',
		});
		const error = await failureOf(runPartnerPayroll(downloadFiles, credentials()));
		expect(error.message).toBe(
			'The listed document has neither a usable documentUrl nor a documentId',
		);
		expect(error.description).toContain(
			'The listed documentUrl was "https://files.example.org/GB1/d1.pdf"',
		);
		expect(`${error.message} ${error.description}`).not.toContain('Document ID');
	});
});

describe('finding 2: a 2xx read whose body is not the documented JSON fails', () => {
	const getCompany = { resource: 'company', operation: 'get', companyId: 'FR1' };

	it.each([
		['an empty 200', json(''), 'a JSON object', 'an empty body'],
		['a 204', json('', 204), 'a JSON object', 'an empty body'],
		['null', json('null'), 'a JSON object', 'null'],
		['an array', json('[1]'), 'a JSON object', '[1]'],
	])('Company → Get, %s', async (_name, answer, expected, got) => {
		answers['/api/companies/FR1'] = answer;
		const error = await failureOf(runPartnerPayroll(getCompany, credentials()));
		expect(error.message).toBe(`The Partner Payroll API answered without ${expected}`);
		expect(error.description).toContain(`it was ${got}`);
	});

	it.each([
		['document', 'getIncomeTaxDocuments', '/income-taxes-documents', 'a "documents" list'],
		['document', 'getAutoEnrolmentDocuments', '/auto-enrolment-documents', 'a "documents" list'],
		[
			'insuranceContract',
			'getHealthInsurance',
			'/health-insurance-contracts',
			'a "contracts" list',
		],
		['insuranceContract', 'getProvidentFund', '/provident-fund-contracts', 'a "contracts" list'],
	])('%s → %s, an object without its list', async (resource, operation, path, expected) => {
		answers[`/api/companies/C1${path}`] = json('{"foo":1}');
		const error = await failureOf(
			runPartnerPayroll({ resource, operation, companyId: 'C1' }, credentials()),
		);
		expect(error.message).toBe(`The Partner Payroll API answered without ${expected}`);
	});

	it('Accounting → Get Entries, an object instead of the array of entries', async () => {
		answers['/api/companies/FR1/accounting-v2'] = json('{"foo":1}');
		const error = await failureOf(
			runPartnerPayroll(
				{ resource: 'accounting', operation: 'getEntries', companyId: 'FR1', month: '202610' },
				credentials(),
			),
		);
		expect(error.message).toBe('The Partner Payroll API answered without a JSON array of objects');
	});

	it('with Continue On Fail the failed item still has a JSON object, paired with its input', async () => {
		answers['/api/companies/FR1'] = json('null');
		const items = await runPartnerPayroll(getCompany, credentials(), { continueOnFail: true });
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({
			error: 'The Partner Payroll API answered without a JSON object',
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('finding 3: an introspection answer that is not one names the Authorization Server URL', () => {
	const tokenCompany = { resource: 'company', operation: 'get', companyId: '' };

	it.each([
		['JSON without active', json('{"foo":1}')],
		['a string active', json('{"active":"true","company_id":"FR1"}')],
		[
			'an HTML page',
			{
				status: 200,
				bytes: Buffer.from('<html>Sign in</html>'),
				headers: { 'Content-Type': 'text/html' },
			},
		],
	])('%s', async (_name, answer) => {
		answers['/oauth/introspect'] = answer as StubAnswer;
		const error = await failureOf(runPartnerPayroll(tokenCompany, credentials()));
		expect(error.message).toBe(
			'The Authorization Server URL did not answer like an introspection endpoint',
		);
		expect(error.description).toContain('Check the Authorization Server URL');
		expect(`${error.message} ${error.description}`).not.toMatch(/revoked|not active/);
	});
});
