'use strict';
// The connect link in a real n8n, as `npm start` sets it up: the shipped example "partner, connect link"
// (real-n8n/examples/partner-connect-link.json) imported and published, its Partner API credential empty, and
// its n8n API credential given the owner's public-API key by ensureConnectLink, which also registers the link
// with the sandbox. A real headless browser plays three client administrators: each opens the link, picks a
// company on the sandbox's consent page (one of its 300) and accepts. The credential ends with the three
// companies, each with a token of its own that serves it; each connect made one execution naming the company,
// with no code and no token. Between the second and the third connect the owner's key is deleted, as in
// Settings → n8n API: the next start makes a new one, and the link goes on working.
const fs = require('node:fs');
const path = require('node:path');
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
	PARTNER_CONNECT_DEMO,
	connectExampleCredentials,
	ensureConnectLink,
	importExamples,
	partnerPayrollNode,
	chainWorkflow,
	nodeItems,
} = require('../lib');

jest.setTimeout(180_000);
const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing

const PARTNER = PARTNER_CONNECT_DEMO.credential;
const WORKFLOW_ID = PARTNER_CONNECT_DEMO.workflowId;
const TRIGGER = 'Connect link';
const CONNECTED_BRANCH = 'Company connected (welcome it)';
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
let rest;
let api;
let apiKeyFile;
const pages = [];
const setups = [];

/** What npm start does once n8n runs: the owner's key (kept or new) in the n8n API credential, the link registered. */
async function setUpLink() {
	const setup = await ensureConnectLink({ rest, n8nUrl: instance.url, sandbox, apiKeyFile });
	setups.push({ ...setup, apiKey: JSON.parse(fs.readFileSync(apiKeyFile, 'utf8')).apiKey });
	return setup.connectLink;
}

/** A client administrator opens the link, picks the company and accepts; resolves with what the page showed. */
async function connect(connectLink, { companyId, label }) {
	const page = await browser.context.newPage();
	page.setDefaultTimeout(60_000);
	await page.goto(`${connectLink}?label=${encodeURIComponent(label)}`);
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

beforeAll(async () => {
	await ensureN8nInstalled();
	instance = await createInstance({ prefix: 'n8n-e2e-connect-link-' });
	apiKeyFile = path.join(instance.userFolder, 'n8n-api-key.json');
	sandbox = await startTestSandbox({ generatedCompanies: 296 });
	await instance.cli.importCredentials(connectExampleCredentials(sandbox, { n8nUrl: instance.url }));
	await importExamples(instance.cli, {
		importedIdsFile: path.join(instance.userFolder, 'imported-examples.json'),
		only: [WORKFLOW_ID],
	});
	await instance.start();
	rest = new N8nRest(instance.url);
	await rest.ensureOwner();
	// The test's own key, to read executions (the connect link's key may only write credentials).
	api = new N8nPublicApi(instance.url, await rest.createApiKey('e2e-connect-link-executions'));

	browser = await launchBrowser();
	const link = await setUpLink();
	await connect(link, CONNECTS[0]);
	// The next start keeps the key.
	await connect(await setUpLink(), CONNECTS[1]);
	// The owner deletes the key in Settings → n8n API; the next start makes a new one.
	await rest.deleteApiKeysLabelled(PARTNER_CONNECT_DEMO.apiKeyLabel);
	await connect(await setUpLink(), CONNECTS[2]);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await browser?.close();
	await instance?.dispose();
	await sandbox?.close();
});

const storedCompanies = async () => (await instance.cli.exportCredential(PARTNER.id)).data.companies.company;

test('the owner\'s key is kept from one start to the next, and made anew once deleted: one key of that label', async () => {
	expect(setups.map(({ newApiKey }) => newApiKey)).toEqual([true, false, true]);
	expect(setups[1].apiKey).toBe(setups[0].apiKey);
	expect(setups[2].apiKey).not.toBe(setups[0].apiKey);
	expect(setups.map(({ connectLink }) => connectLink)).toEqual(
		Array(3).fill(`${instance.url}/webhook/${PARTNER_CONNECT_DEMO.webhookId}/connect`),
	);
	const listed = await rest.request('GET', '/rest/api-keys');
	const keys = (Array.isArray(listed) ? listed : listed.items).filter(({ label }) => label === PARTNER_CONNECT_DEMO.apiKeyLabel);
	expect(keys).toHaveLength(1);
	expect(keys[0].scopes).toEqual(expect.arrayContaining([...PARTNER_CONNECT_DEMO.apiKeyScopes]));
	expect((await instance.cli.exportCredential(PARTNER_CONNECT_DEMO.n8nApiCredential.id)).data).toEqual({
		url: instance.url,
		apiKey: setups[2].apiKey,
	});
	expect(fs.statSync(apiKeyFile).mode & 0o777).toBe(0o600);
});

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

test("each connect made one execution with the company, on the example's connected branch, never a code or a token", async () => {
	const executions = await api.finishedExecutions(WORKFLOW_ID, CONNECTS.length);
	expect(executions).toHaveLength(CONNECTS.length);
	const items = executions
		.map((execution) => nodeItems(execution, CONNECTED_BRANCH)[0].json)
		.sort((a, b) => a.companyId.localeCompare(b.companyId));
	for (const execution of executions) expect(nodeItems(execution, TRIGGER)).toHaveLength(1);
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
