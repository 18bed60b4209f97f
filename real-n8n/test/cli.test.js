'use strict';
// Every resource and operation of the node, run by n8n's own CLI against the sandbox, with both
// credential types: the package installed as a community package, workflows imported and executed
// as n8n does it. Outputs are compared with what the sandbox serves (JSON, file bytes, names, types);
// failing cases assert the error n8n records for the execution.
const {
	ensureN8nInstalled,
	createInstance,
	startTestSandbox,
	accessTokenCredential,
	oauth2Credential,
	ALL_SCOPES,
	partnerPayrollNode,
	chainWorkflow,
	nodeItems,
	executionError,
	binaryBytes,
	sha256,
	listRequests,
	companyRecord,
	listedDocuments,
	ofCompany,
	billingRecordCredential,
	withBillingRecord,
	connectBillingRecord,
} = require('../lib');

jest.setTimeout(180_000);

const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
const MONTH = '202610'; // completed for every seeded company
const FR = 'FR1001';
const GB = 'GB3001';
const ES = 'ES2001';
/**
 * The month each credential type declares for FR1001: the record of declarations is shared by the whole
 * n8n, and a second declaration of the same company and month is a correction whose item also names the
 * earlier one.
 */
const billingMonth = (creds) => (creds.FR.type === 'partnerPayrollOAuth2Api' ? '202609' : MONTH);

// A second partner application, so that the access-token credentials can hold partner tokens of
// their own (the sandbox keeps one OAuth token per company and client, n8n-local's go to OAuth2).
const E2E_PARTNER = {
	clientId: 'e2e-partner',
	clientSecret: 'sandbox-secret-e2e-partner',
	redirectUris: ['http://127.0.0.1:9/unused'],
	allowedScopes: [...ALL_SCOPES],
	partner: true,
};

let instance;
let sandbox;
let credentials;
// Billing Declaration → Create keeps its record of declarations in this n8n's Data Tables.
const N8N_API = billingRecordCredential({ id: 'cliN8nApi' });

/** Credentials by role; tokens are issued by the sandbox and never printed. */
function makeCredentials() {
	const partnerToken = (companyId, clientId) =>
		sandbox.issueToken({ companyId, scopes: ALL_SCOPES, clientId, kind: 'oauth' }).access_token;
	const accessToken = (id, name, token) => accessTokenCredential({ id, name, sandbox, accessToken: token });
	const oauth2 = (id, name, token) =>
		oauth2Credential({ id, name, sandbox, tokenData: { access_token: token, token_type: 'bearer' } });
	return {
		accessToken: {
			FR: accessToken('tkFR', 'Token FR', partnerToken(FR, E2E_PARTNER.clientId)),
			GB: accessToken('tkGB', 'Token GB', partnerToken(GB, E2E_PARTNER.clientId)),
		},
		oAuth2: {
			FR: oauth2('oaFR', 'OAuth2 FR', partnerToken(FR, 'n8n-local')),
			GB: oauth2('oaGB', 'OAuth2 GB', partnerToken(GB, 'n8n-local')),
		},
		// A company API key with one scope: not a partner, and no payment-files:read.
		limitedApiKey: accessToken(
			'tkFRLimited',
			'API key FR accounting only',
			sandbox.issueToken({ companyId: FR, scopes: ['accounting:read'], kind: 'apiKey' }).access_token,
		),
		// An OAuth2 connection of ES2001 granted accounting:read only.
		limitedOAuth2: oauth2(
			'oaESLimited',
			'OAuth2 ES accounting only',
			sandbox.issueToken({ companyId: ES, scopes: ['accounting:read'], clientId: 'n8n-local', kind: 'oauth' })
				.access_token,
		),
	};
}

const credentialList = () => [
	...Object.values(credentials.accessToken),
	...Object.values(credentials.oAuth2),
	credentials.limitedApiKey,
	credentials.limitedOAuth2,
	N8N_API,
];

beforeAll(async () => {
	await ensureN8nInstalled();
	sandbox = await startTestSandbox({ extraClients: [E2E_PARTNER] });
	instance = await createInstance({ prefix: 'n8n-e2e-cli-' });
	credentials = makeCredentials();
	await instance.cli.importCredentials(credentialList());
	await connectBillingRecord(instance, N8N_API);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.close();
});

// ---- expected values, from the sandbox's seed (the bytes and records it serves) -----------------


/** What the sandbox itself answers to a direct call with the same token. */
async function directApiJson(apiPath, credential) {
	const response = await fetch(`${sandbox.apiBaseUrl}${apiPath}`, {
		headers: { authorization: `Bearer ${credential.data.accessToken ?? credential.data.oauthTokenData.access_token}` },
	});
	expect(response.status).toBe(200);
	return response.json();
}

function expectFile(item, { bytes, fileName, mimeType, property = 'data' }) {
	const binary = item.binary[property];
	expect(binary.fileName).toBe(fileName);
	expect(binary.mimeType).toBe(mimeType);
	expect(sha256(binaryBytes(instance.userFolder, binary))).toBe(sha256(bytes));
	expect(item.json).toMatchObject({ fileName, mimeType, fileSize: bytes.length });
}

// ---- one workflow per operation and credential type ----------------------------------------------

/**
 * Each case: the nodes of a workflow (given the credentials of one type) and the checks of its run.
 * The node named 'Result' is the one whose output is checked.
 */
const OPERATION_CASES = {
	company: {
		nodes: (creds) => [partnerPayrollNode('Result', { resource: 'company', operation: 'get', companyId: '' }, creds.FR)],
		check: (run) => expect(nodeItems(run, 'Result').map((item) => item.json)).toEqual(ofCompany(FR, [companyRecord(sandbox, FR)])),
	},
	companyById: {
		nodes: (creds) => [partnerPayrollNode('Result', { resource: 'company', operation: 'get', companyId: GB }, creds.GB)],
		check: (run) => expect(nodeItems(run, 'Result').map((item) => item.json)).toEqual(ofCompany(GB, [companyRecord(sandbox, GB)])),
	},
	companyFr: {
		nodes: (creds) => [partnerPayrollNode('Result', { resource: 'company', operation: 'getFrench' }, creds.FR)],
		check: async (run, creds) => {
			const [item] = nodeItems(run, 'Result');
			expect(item.json).toEqual(ofCompany(FR, [await directApiJson(`/companies-fr/${FR}`, creds.FR)])[0]);
			expect(item.json).toMatchObject(companyRecord(sandbox, FR));
		},
	},
	payrollStatus: {
		nodes: (creds) => [partnerPayrollNode('Result', { resource: 'payroll', operation: 'getStatus', month: MONTH }, creds.FR)],
		check: (run) =>
			expect(nodeItems(run, 'Result')[0].json).toEqual({ companyId: FR, month: MONTH, ...sandbox.seed.payrollStatus(FR, MONTH) }),
	},
	paymentFile: {
		nodes: (creds) => [
			partnerPayrollNode(
				'Result',
				{ resource: 'payroll', operation: 'downloadPaymentFile', month: MONTH, binaryPropertyName: 'paymentFile' },
				creds.FR,
			),
		],
		check: (run) => {
			const [item] = nodeItems(run, 'Result');
			expectFile(item, {
				bytes: sandbox.seed.paymentFile(FR, MONTH),
				fileName: `payment-file-${FR}-${MONTH}`,
				mimeType: 'application/octet-stream',
				property: 'paymentFile',
			});
			expect(item.json).toMatchObject({ companyId: FR, month: MONTH });
		},
	},
	accountingEntries: {
		nodes: (creds) => [partnerPayrollNode('Result', { resource: 'accounting', operation: 'getEntries', month: MONTH }, creds.FR)],
		check: (run) =>
			expect(nodeItems(run, 'Result').map((item) => item.json)).toEqual(ofCompany(FR, sandbox.seed.accountingEntries(FR, MONTH))),
	},
	accountingCsv: {
		nodes: (creds) => [partnerPayrollNode('Result', { resource: 'accounting', operation: 'downloadCsv', month: MONTH }, creds.FR)],
		check: (run) => {
			const items = nodeItems(run, 'Result');
			expect(items).toHaveLength(1);
			expectFile(items[0], {
				bytes: sandbox.seed.accountingCsv(FR, MONTH),
				fileName: `accounting-${FR}-${MONTH}.csv`,
				mimeType: 'text/csv',
			});
		},
	},
	accountingCsvLines: {
		nodes: (creds) => [
			partnerPayrollNode(
				'Result',
				{ resource: 'accounting', operation: 'downloadCsv', month: MONTH, options: { parseLines: true } },
				creds.FR,
			),
		],
		check: (run) => {
			const items = nodeItems(run, 'Result');
			const entries = sandbox.seed.accountingEntries(FR, MONTH);
			expect(items).toHaveLength(entries.length);
			expect(items.map((item) => item.json.accountId)).toEqual(entries.map((entry) => entry.accountId));
			expect(items.map((item) => item.json.debit)).toEqual(entries.map((entry) => entry.debit));
			expect(sha256(binaryBytes(instance.userFolder, items[0].binary.data))).toBe(
				sha256(sandbox.seed.accountingCsv(FR, MONTH)),
			);
		},
	},
	incomeTaxDocuments: {
		nodes: (creds) => [
			partnerPayrollNode('Result', { resource: 'document', operation: 'getIncomeTaxDocuments' }, creds.GB),
		],
		check: (run) =>
			expect(nodeItems(run, 'Result').map((item) => item.json)).toEqual(ofCompany(GB, listedDocuments(sandbox, GB, 'incomeTaxes'))),
	},
	incomeTaxPdfs: {
		nodes: (creds) => [
			partnerPayrollNode(
				'Result',
				{ resource: 'document', operation: 'getIncomeTaxDocuments', options: { downloadFiles: true } },
				creds.GB,
			),
		],
		check: (run) => {
			const items = nodeItems(run, 'Result');
			const documents = listedDocuments(sandbox, GB, 'incomeTaxes');
			expect(items.map((item) => item.json)).toEqual(ofCompany(GB, documents));
			items.forEach((item, index) => {
				const binary = item.binary.data;
				expect(binary.fileName).toBe(documents[index].name);
				expect(binary.mimeType).toBe('application/pdf');
				expect(sha256(binaryBytes(instance.userFolder, binary))).toBe(
					sha256(sandbox.seed.document(GB, documents[index].documentId)),
				);
			});
		},
	},
	autoEnrolmentDocuments: {
		nodes: (creds) => [
			partnerPayrollNode('Result', { resource: 'document', operation: 'getAutoEnrolmentDocuments' }, creds.GB),
		],
		check: (run) =>
			expect(nodeItems(run, 'Result').map((item) => item.json)).toEqual(ofCompany(GB, listedDocuments(sandbox, GB, 'autoEnrolment'))),
	},
	documentDownload: {
		// The usual chain: list, then download each listed document by its documentUrl.
		nodes: (creds) => [
			partnerPayrollNode('List', { resource: 'document', operation: 'getAutoEnrolmentDocuments' }, creds.GB),
			partnerPayrollNode(
				'Result',
				{ resource: 'document', operation: 'download', documentId: '={{ $json.documentUrl }}', binaryPropertyName: 'pdf' },
				creds.GB,
			),
		],
		check: (run) => {
			const items = nodeItems(run, 'Result');
			const documents = listedDocuments(sandbox, GB, 'autoEnrolment');
			expect(items).toHaveLength(documents.length);
			items.forEach((item, index) => {
				expectFile(item, {
					bytes: sandbox.seed.document(GB, documents[index].documentId),
					fileName: documents[index].name,
					mimeType: 'application/pdf',
					property: 'pdf',
				});
				expect(item.json).toMatchObject({ companyId: GB, documentId: documents[index].documentId });
			});
		},
	},
	healthInsurance: {
		nodes: (creds) => [
			partnerPayrollNode('Result', { resource: 'insuranceContract', operation: 'getHealthInsurance' }, creds.FR),
		],
		check: (run) =>
			expect(nodeItems(run, 'Result').map((item) => item.json)).toEqual(ofCompany(FR, sandbox.seed.healthInsuranceContracts(FR))),
	},
	providentFund: {
		nodes: (creds) => [
			partnerPayrollNode('Result', { resource: 'insuranceContract', operation: 'getProvidentFund' }, creds.FR),
		],
		check: (run) =>
			expect(nodeItems(run, 'Result').map((item) => item.json)).toEqual(ofCompany(FR, sandbox.seed.providentFundContracts(FR))),
	},
	billingDeclaration: {
		nodes: (creds) => [
			withBillingRecord(
				partnerPayrollNode(
					'Result',
					{
						resource: 'billingDeclaration',
						operation: 'create',
						monthOfApplication: billingMonth(creds),
						quantityByProducts: {
							product: [
								{ productName: `payroll-${creds.FR.id}`, quantity: 12 },
								{ productName: 'meal-vouchers', quantity: 240.5 },
							],
						},
					},
					creds.FR,
				),
				N8N_API,
			),
		],
		check: async (run, creds) => {
			const quantityByProducts = [
				{ productName: `payroll-${creds.FR.id}`, quantity: 12 },
				{ productName: 'meal-vouchers', quantity: 240.5 },
			];
			expect(nodeItems(run, 'Result')[0].json).toEqual({
				declared: true,
				companyId: FR,
				monthOfApplication: billingMonth(creds),
				quantityByProducts,
				// The service's own answer to the declaration (an empty body for its 204).
				serviceAnswer: {},
			});
			const received = await (await fetch(`${sandbox.url}/_sandbox/billing-declarations?companyId=${FR}`)).json();
			expect(received).toContainEqual(
				expect.objectContaining({ companyId: FR, monthOfApplication: billingMonth(creds), quantityByProducts }),
			);
		},
	},
};

// ---- failing cases: the error n8n records for the execution --------------------------------------

/** Each case: one node named 'Failing', its credential, and the checks of the recorded error. */
const FAILING_CASES = {
	errScopeToken: {
		title: 'missing scope (access token): 403 naming the scope',
		parameters: { resource: 'payroll', operation: 'downloadPaymentFile', month: MONTH },
		credential: () => credentials.limitedApiKey,
		check: (error) => {
			expect(error).toMatchObject({ httpCode: '403', message: 'Missing scope "payment-files:read"' });
			expect(error.description).toMatch(/not granted the scope "payment-files:read"/);
		},
	},
	errScopeOAuth2: {
		title: 'missing scope (OAuth2): 403 naming the scope',
		parameters: { resource: 'payroll', operation: 'downloadPaymentFile', month: MONTH },
		credential: () => credentials.limitedOAuth2,
		check: (error) => expect(error).toMatchObject({ httpCode: '403', message: 'Missing scope "payment-files:read"' }),
	},
	errWrongDocument: {
		title: 'wrong document id: 404 from the service',
		parameters: { resource: 'document', operation: 'download', documentId: 'DOC-DOES-NOT-EXIST' },
		credential: () => credentials.oAuth2.GB,
		check: (error) => {
			expect(error.httpCode).toBe('404');
			expect(error.message).toMatch(/^Not found: The provided id is wrong/);
		},
	},
	errWrongCompany: {
		title: 'wrong company id: 404 from the service',
		parameters: { resource: 'company', operation: 'get', companyId: 'FR9999' },
		credential: () => credentials.accessToken.FR,
		check: (error) => {
			expect(error.httpCode).toBe('404');
			expect(error.message).toMatch(/^Not found/);
		},
	},
	errBadMonth: {
		title: 'bad month: refused before any request is sent',
		parameters: { resource: 'payroll', operation: 'getStatus', month: '2026-13' },
		credential: () => credentials.accessToken.FR,
		before: () => fetch(`${sandbox.url}/_sandbox/requests`, { method: 'DELETE' }),
		check: async (error) => {
			expect(error.message).toBe('Month must be a month as YYYYMM, for example 202610 (got "2026-13")');
			expect(error.description).toMatch(/^A month as YYYYMM \(202610\)\. Also accepted: YYYY-MM \(2026-10\)/);
			const requests = await listRequests(sandbox);
			expect(requests.filter((request) => request.path.includes('payroll-status'))).toEqual([]);
		},
	},
	errBillingApiKey: {
		title: 'billing declaration with a company API key: 403, partners only',
		parameters: {
			resource: 'billingDeclaration',
			operation: 'create',
			monthOfApplication: MONTH,
			quantityByProducts: { product: [{ productName: 'payroll', quantity: 1 }] },
		},
		credential: () => credentials.limitedApiKey,
		n8nApi: N8N_API,
		check: (error) => {
			expect(error.httpCode).toBe('403');
			expect(error.message).toMatch(/^Forbidden/);
		},
	},
};

// ---- running them -----------------------------------------------------------------------------------

const CREDENTIAL_TYPES = ['accessToken', 'oAuth2'];

// execute-batch only takes ids that contain a digit.
const workflowId = (type, caseName) => {
	const index = String(Object.keys(OPERATION_CASES).indexOf(caseName) + 1).padStart(2, '0');
	return `${type === 'oAuth2' ? 'oa' : 'tk'}${index}-${caseName}`.slice(0, 21);
};

function allWorkflows() {
	const operationWorkflows = CREDENTIAL_TYPES.flatMap((type) =>
		Object.entries(OPERATION_CASES).map(([caseName, { nodes }]) =>
			chainWorkflow(workflowId(type, caseName), `${caseName} (${type})`, nodes(credentials[type])),
		),
	);
	const failingWorkflows = Object.entries(FAILING_CASES).map(([id, { title, parameters, credential, n8nApi }]) => {
		const node = partnerPayrollNode('Failing', parameters, credential());
		return chainWorkflow(id, title, [n8nApi ? withBillingRecord(node, n8nApi) : node]);
	});
	return [...operationWorkflows, ...failingWorkflows];
}

// One import for every workflow of the file: each n8n CLI process costs seconds.
beforeAll(async () => {
	await instance.cli.importWorkflows(allWorkflows());
}, SETUP_TIMEOUT_MS);

describe.each(CREDENTIAL_TYPES)('every operation with the %s credential', (type) => {
	let batch;

	beforeAll(async () => {
		batch = await instance.cli.executeBatch(Object.keys(OPERATION_CASES).map((caseName) => workflowId(type, caseName)));
	}, SETUP_TIMEOUT_MS);

	test('all workflows succeed', () => {
		expect(batch.errors).toEqual([]);
		expect(batch.ok).toBe(true);
	});

	test.each(Object.keys(OPERATION_CASES))('%s', async (caseName) => {
		const run = batch.runs[workflowId(type, caseName)];
		expect(run).toBeDefined();
		expect(executionError(run)).toBeUndefined();
		await OPERATION_CASES[caseName].check(run, credentials[type]);
	});
});

describe('failing cases (one `n8n execute` each)', () => {
	test.each(Object.entries(FAILING_CASES).map(([id, failingCase]) => [failingCase.title, id]))('%s', async (_title, id) => {
		const { before, check } = FAILING_CASES[id];
		if (before) await before();
		const { ok, run } = await instance.cli.executeWorkflow(id);

		expect(ok).toBe(false);
		expect(run.data.resultData.lastNodeExecuted).toBe('Failing');
		expect(nodeItems(run, 'Failing')).toEqual([]);
		await check(executionError(run));
	});
});
