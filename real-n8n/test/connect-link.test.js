'use strict';
// The connect link in a real n8n: a published workflow with the Partner Payroll Connect Trigger, a Partner
// API credential that starts empty, and an n8n API credential holding a public-API key of the owner. A real
// headless browser plays three client administrators: each opens the link, picks a company on the sandbox's
// consent page (one of its 300) and accepts. The credential ends with the three companies, each with a token of
// its own that serves it; each connect made one execution naming the company, with no code and no token.
const {
	ensureN8nInstalled,
	createInstance,
	startTestSandbox,
	sandboxControl,
	introspect,
	launchBrowser,
	N8nRest,
	N8nPublicApi,
	DEFAULT_CLIENT,
	partnerCredential,
	partnerPayrollNode,
	chainWorkflow,
	nodeItems,
	packageName,
} = require('../lib');

jest.setTimeout(180_000);
const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing

const PARTNER = { id: 'ppConnectE2e0001', name: 'Partner API (connect e2e)' };
const N8N_API = { id: 'ppN8nApiE2e00001', name: 'n8n API (connect e2e)' };
const WORKFLOW = { id: 'wfConnectLink001', webhookId: 'e2e-connect-link' };
// A seeded company and two of the generated ones, in three countries.
const CONNECTS = [
	{ companyId: 'FR5001', label: 'Boulangerie Martin' },
	{ companyId: 'ES6002', label: 'Taller Ruiz' },
	{ companyId: 'GB7003', label: 'Harbour Tea Ltd' },
];
const MONTH = '202610';

let instance;
let sandbox;
let browser;
let api;
const pages = [];

const connectLink = () => `${instance.url}/webhook/${WORKFLOW.webhookId}/connect`;

function connectWorkflow() {
	return {
		id: WORKFLOW.id,
		name: 'Connect client companies (e2e)',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: `${WORKFLOW.id}-connect`,
				name: 'Partner Payroll Connect Trigger',
				type: `${packageName}.partnerPayrollConnectTrigger`,
				typeVersion: 1,
				position: [0, 0],
				webhookId: WORKFLOW.webhookId,
				parameters: {},
				credentials: {
					partnerPayrollPartnerApi: PARTNER,
					partnerPayrollN8nApi: N8N_API,
				},
			},
		],
		connections: {},
	};
}

beforeAll(async () => {
	await ensureN8nInstalled();
	instance = await createInstance({ prefix: 'n8n-e2e-connect-link-' });
	sandbox = await startTestSandbox({ generatedCompanies: 296 });
	await instance.cli.importCredentials([
		partnerCredential({ ...PARTNER, sandbox, companies: [], client: DEFAULT_CLIENT }),
		// The key exists only once n8n runs and has an owner: set below.
		{ ...N8N_API, type: 'partnerPayrollN8nApi', data: { url: instance.url, apiKey: 'set-after-start' } },
	]);
	await instance.cli.importWorkflows([connectWorkflow()]);
	await instance.cli.publishWorkflow(WORKFLOW.id);
	await instance.start();
	const rest = new N8nRest(instance.url);
	await rest.ensureOwner();
	const apiKey = await rest.createApiKey(`e2e-connect-${Date.now()}`);
	await rest.request('PATCH', `/rest/credentials/${N8N_API.id}`, {
		...N8N_API,
		type: 'partnerPayrollN8nApi',
		data: { url: instance.url, apiKey },
	});
	api = new N8nPublicApi(instance.url, apiKey);
	// The provider portal's step: the connect link is a redirect URI of the partner's application.
	await sandboxControl(sandbox, 'POST', '/clients/redirect-uris', {
		clientId: DEFAULT_CLIENT.clientId,
		redirectUri: connectLink(),
	});

	browser = await launchBrowser();
	for (const { companyId, label } of CONNECTS) {
		const page = await browser.context.newPage();
		page.setDefaultTimeout(60_000);
		await page.goto(`${connectLink()}?label=${encodeURIComponent(label)}`);
		await page.locator('#consent').waitFor();
		await page.locator('#company').selectOption(companyId);
		await page.locator('#accept').click();
		// What the administrator saw, when it is not the connected page: the reason of a failure.
		await page
			.getByText('Connected:')
			.waitFor()
			.catch(async (error) => {
				throw new Error(`${error.message}\nThe page said: ${await page.locator('body').innerText()}`);
			});
		pages.push({ companyId, url: page.url(), text: await page.locator('body').innerText(), html: await page.content() });
		await page.close();
	}
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await browser?.close();
	await instance?.dispose();
	await sandbox?.close();
});

const storedCompanies = async () => (await instance.cli.exportCredential(PARTNER.id)).data.companies.company;

test('each administrator sees a page that names the company, with no code and no token', async () => {
	const rows = await storedCompanies();
	for (const [index, { companyId, label }] of CONNECTS.entries()) {
		expect(pages[index].text).toContain(`Connected: ${label} (company ${companyId})`);
		const token = rows.find((row) => row.companyId === companyId).accessToken.split(':')[1];
		expect(pages[index].html).not.toContain(token);
		expect(pages[index].url).not.toMatch(/[?&]code=/);
	}
});

test('the Partner API credential holds the three companies, each with an active token of its own', async () => {
	const rows = await storedCompanies();
	expect(rows.map(({ companyId, label }) => ({ companyId, label }))).toEqual(CONNECTS);
	for (const row of rows) {
		const [boundTo, token] = row.accessToken.split(':');
		expect(boundTo).toBe(row.companyId);
		await expect(introspect(sandbox, token)).resolves.toMatchObject({
			active: true,
			company_id: row.companyId,
			client_id: DEFAULT_CLIENT.clientId,
		});
	}
});

test('each connect made one execution with the company, never a code or a token', async () => {
	const executions = await api.finishedExecutions(WORKFLOW.id, CONNECTS.length);
	expect(executions).toHaveLength(CONNECTS.length);
	const items = executions
		.map((execution) => nodeItems(execution, 'Partner Payroll Connect Trigger')[0].json)
		.sort((a, b) => a.companyId.localeCompare(b.companyId));
	expect(items.map(({ connected, companyId, label, replaced }) => ({ connected, companyId, label, replaced }))).toEqual(
		[...CONNECTS]
			.sort((a, b) => a.companyId.localeCompare(b.companyId))
			.map((connect) => ({ connected: true, ...connect, replaced: false })),
	);
	const recorded = JSON.stringify(executions);
	for (const row of await storedCompanies()) expect(recorded).not.toContain(row.accessToken.split(':')[1]);
	expect(recorded).not.toContain(DEFAULT_CLIENT.clientSecret);
});

test("a workflow with the credential reads each connected company's payroll status with its own token", async () => {
	const credential = { ...PARTNER, type: 'partnerPayrollPartnerApi' };
	const workflow = chainWorkflow(
		'wfConnectedStatus',
		'Connected companies: payroll status',
		CONNECTS.map(({ companyId }) =>
			partnerPayrollNode(companyId, { resource: 'payroll', operation: 'getStatus', companyId, month: MONTH }, credential),
		),
	);
	await instance.cli.importWorkflows([workflow]);
	await sandboxControl(sandbox, 'DELETE', '/requests');
	const { ok, run } = await instance.cli.executeWorkflow(workflow.id);
	expect(ok).toBe(true);
	for (const { companyId } of CONNECTS) {
		expect(nodeItems(run, companyId)[0].json).toMatchObject({ companyId, status: 'completed' });
	}
	const requests = (await sandboxControl(sandbox, 'GET', '/requests')).filter((request) => request.path.startsWith('/api/'));
	expect(requests).toHaveLength(CONNECTS.length);
	for (const request of requests) expect(request.path).toContain(`/companies/${request.tokenCompanyId}/`);
});
