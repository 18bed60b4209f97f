'use strict';
// The Partner API credential with the 300 companies of the sandbox, in n8n's real editor: the list loads,
// a label can be edited and saved without losing a token, no token is ever shown once saved, and the
// position trap n8n sets (a deleted row gives every later row the token of the row before it, because
// n8n puts masked values back by position) never sends a token for another company: the shifted
// companies fail with an error naming both companies, the company before the deleted row still works.
// The credential is restricted to the package's nodes (restrictToSupportedNodes): what n8n makes of that
// on saving and on running a workflow in which n8n's HTTP Request node uses it, in each n8n version, and
// with the package loaded from n8n's custom extensions folder instead of as a community package.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const {
	artifactsDir,
	ensureN8nInstalled,
	openEditorSession,
	sandboxControl,
	listRequests,
	DEFAULT_CLIENT,
	ALL_SCOPES,
	partnerPayrollNode,
	chainWorkflow,
	nodeItems,
	packageName,
	n8nRuntime,
	createInstance,
	installedPackageDir,
} = require('../lib');

jest.setTimeout(10 * 60_000);

const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
// 300 rows take 10 to 120 s to render, depending on the machine's load: the modal is opened once.
const LIST_TIMEOUT_MS = 4 * 60_000;
const GENERATED_COMPANIES = 296; // and the 4 seeded ones: 300
const MONTH = '202610'; // completed for every company of the sandbox
const EDITED_ROW = 4;
const DELETED_ROW = 1;

let session;
let instance;
let sandbox;
let page;
let credential;
/** The rows as stored at creation: {companyId, label, accessToken} with the token bound to its company. */
let rows;

const modal = () => page.locator('[data-test-id="editCredential-modal"]');
const companyIdInputs = () => modal().locator('[data-test-id="parameter-input-companyId"] input');
const tokenOf = (row) => row.accessToken.slice(row.companyId.length + 1);

beforeAll(async () => {
	await ensureN8nInstalled();
	session = await openEditorSession({ prefix: 'n8n-e2e-partner-credential-' });
	({ instance, sandbox, page } = session);
	await sandboxControl(sandbox, 'POST', '/reset', { generatedCompanies: GENERATED_COMPANIES });
	const { companies } = await sandboxControl(sandbox, 'GET', '/seed');
	const issued = await sandboxControl(
		sandbox,
		'POST',
		'/tokens',
		companies.map((company) => ({ companyId: company.id, scopes: ALL_SCOPES })),
	);
	rows = issued.map(({ companyId, access_token }) => ({
		companyId,
		label: `Client ${companyId}`,
		accessToken: `${companyId}:${access_token}`,
	}));
	const created = await session.rest.createCredential({
		name: 'Partner Payroll Partner API (300 companies)',
		type: 'partnerPayrollPartnerApi',
		data: {
			baseUrl: sandbox.apiBaseUrl,
			authServerUrl: sandbox.authServerUrl,
			clientId: DEFAULT_CLIENT.clientId,
			clientSecret: DEFAULT_CLIENT.clientSecret,
			companies: { company: rows },
		},
	});
	credential = { id: created.id, name: created.name, type: 'partnerPayrollPartnerApi' };
}, SETUP_TIMEOUT_MS);

afterAll(async () => await session?.close());

/** Opens the credential's modal and waits until its last row is there; resolves the time it took. */
async function openCredential(expectedRows) {
	const started = Date.now();
	await page.goto(`${instance.url}/home/credentials/${credential.id}`);
	await modal().waitFor({ timeout: LIST_TIMEOUT_MS });
	await companyIdInputs().nth(expectedRows - 1).waitFor({ timeout: LIST_TIMEOUT_MS });
	return Date.now() - started;
}

/** Every value the modal's inputs hold, and its text: what a person could read or copy. */
async function whatTheModalShows() {
	const values = await modal()
		.locator('input, textarea')
		.evaluateAll((inputs) => inputs.map((input) => input.value));
	return [...values, await modal().innerText()].join('\n');
}

/** Save, and the answer of n8n's PATCH. */
async function save() {
	const [saved] = await Promise.all([
		page.waitForResponse(
			(response) =>
				new URL(response.url()).pathname === `/rest/credentials/${credential.id}` &&
				response.request().method() === 'PATCH',
			{ timeout: LIST_TIMEOUT_MS },
		),
		modal().locator('[data-test-id="credential-save-button"]').click(),
	]);
	expect(saved.status()).toBe(200);
}

const RUNTIME = n8nRuntime();
/** Whether the n8n version enforces the credential's `restrictToSupportedNodes` (quirk Q9). */
const enforced = RUNTIME.enforcesNodeRestriction;
/** The nodes that may use the credential: the package's nodes that list it, and the node's AI-tool variant. */
const SUPPORTED_NODES = [
	'partnerPayroll',
	'partnerPayrollTool',
	'partnerPayrollTrigger',
	'partnerPayrollWebhookTrigger',
	'partnerPayrollConnectTrigger',
].map((type) => `${packageName}.${type}`);
const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';
const RESTRICTED_MESSAGE = 'Credential type "partnerPayrollPartnerApi" is restricted to specific nodes';

/** n8n's HTTP Request node, Authentication → Predefined Credential Type → the Partner API credential. */
function httpRequestWithPartnerCredential(name, companyId) {
	return {
		name,
		type: HTTP_REQUEST_TYPE,
		typeVersion: 4.2,
		parameters: {
			method: 'GET',
			url: `${sandbox.apiBaseUrl}/companies/${companyId}/payroll-status?date=${MONTH}`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'partnerPayrollPartnerApi',
			// The company hint the package's nodes set: without it the credential sends no token at all.
			sendHeaders: true,
			headerParameters: { parameters: [{ name: 'x-partner-payroll-company', value: companyId }] },
			options: {},
		},
		credentials: { partnerPayrollPartnerApi: { id: credential.id, name: credential.name } },
		onError: 'continueRegularOutput',
	};
}

const storedRows = async () => (await instance.cli.exportCredential(credential.id)).data.companies.company;

test('the editor loads the 300 companies, with their ids and labels, and shows no token', async () => {
	const loadMs = await openCredential(rows.length);
	fs.mkdirSync(artifactsDir, { recursive: true });
	fs.writeFileSync(
		path.join(artifactsDir, `partner-credential-300-rows-${instance.runtime.n8nVersion}.txt`),
		`The modal showed 300 rows after ${loadMs} ms\n`,
	);
	const companyIds = await companyIdInputs().evaluateAll((inputs) => inputs.map((input) => input.value));
	expect(companyIds).toEqual(rows.map((row) => row.companyId));
	const shown = await whatTheModalShows();
	expect(rows.filter((row) => shown.includes(tokenOf(row)))).toEqual([]);
	expect(shown).not.toContain(DEFAULT_CLIENT.clientSecret);
});

test('a label edited in the editor is saved, and every token stays in its own row', async () => {
	const label = modal().locator('[data-test-id="parameter-input-label"] input').nth(EDITED_ROW);
	await label.fill('Boulangerie du Port');
	await save();
	const stored = await storedRows();
	expect(stored).toHaveLength(rows.length);
	expect(stored[EDITED_ROW].label).toBe('Boulangerie du Port');
	// Not the mask text: n8n merged the masked values back.
	expect(stored.map((row) => row.accessToken)).toEqual(rows.map((row) => row.accessToken));

	// The modal stays open with what n8n answered to the save (opening 300 rows again takes minutes).
	const shown = await whatTheModalShows();
	expect(rows.filter((row) => shown.includes(tokenOf(row)))).toEqual([]);
});

test(`saving a workflow in which every node of the package uses the credential: accepted in n8n ${RUNTIME.n8nVersion}`, async () => {
	const nodes = SUPPORTED_NODES.map((type, index) => ({
		id: `restrict-own-${index}`,
		name: type.slice(packageName.length + 1),
		type,
		typeVersion: 1,
		position: [index * 220, 0],
		parameters: { authentication: 'partnerApi' },
		credentials: { partnerPayrollPartnerApi: { id: credential.id, name: credential.name } },
	}));
	const saved = await session.rest.createWorkflow({
		name: 'Every node of the package with the Partner API credential',
		nodes,
		connections: {},
		settings: { executionOrder: 'v1' },
	});
	expect(saved.nodes.map((node) => node.type).sort()).toEqual([...SUPPORTED_NODES].sort());
});

test(`saving a workflow in which n8n's HTTP Request node uses the credential: ${enforced ? 'refused, naming the nodes that may' : 'accepted'} in n8n ${RUNTIME.n8nVersion}`, async () => {
	const workflow = chainWorkflow('wfRestrictSaveHttp', 'HTTP Request with the Partner API credential', [
		httpRequestWithPartnerCredential('HTTP Request', rows[0].companyId),
	]);
	const saving = session.rest.createWorkflow(workflow);
	if (!enforced) {
		expect((await saving).nodes.map((node) => node.type)).toContain(HTTP_REQUEST_TYPE);
		return;
	}
	const refused = await saving.then(
		() => null,
		(error) => error,
	);
	expect(refused?.status).toBe(400);
	const { message } = JSON.parse(refused.body);
	expect(message).toContain(
		`Cannot save workflow: Node "HTTP Request" (${HTTP_REQUEST_TYPE}) cannot use credential type "partnerPayrollPartnerApi"`,
	);
	// The list n8n computed for the credential: the package's nodes, the AI-tool variant included.
	const listed = message.slice(message.indexOf('restricted to: ') + 'restricted to: '.length).replace(/\.$/, '');
	expect(listed.split(', ').sort()).toEqual([...SUPPORTED_NODES].sort());
});

test(`running a workflow that holds both (imported, so not checked on saving): the HTTP Request node ${enforced ? 'is refused by n8n' : 'gets the credential, its request is refused by the credential itself'}; the Partner Payroll node reads with it`, async () => {
	const companyId = rows[0].companyId;
	const workflow = chainWorkflow('wfRestrictRunHttp', 'HTTP Request and Partner Payroll with the Partner API credential', [
		httpRequestWithPartnerCredential('HTTP Request', companyId),
		partnerPayrollNode('Partner Payroll', { resource: 'payroll', operation: 'getStatus', companyId, month: MONTH }, credential),
	]);
	// n8n's CLI import does not run the check of saving: the engine's own check is what stops the node.
	await instance.cli.importWorkflows([workflow]);
	await sandboxControl(sandbox, 'DELETE', '/requests');
	const { run } = await instance.cli.executeWorkflow(workflow.id);

	// The node's error item (its On Error is "Continue"): n8n's message, or the credential's own refusal.
	const { error } = nodeItems(run, 'HTTP Request')[0].json;
	const message = typeof error === 'string' ? error : error?.message;
	if (enforced) {
		expect(message).toBe(RESTRICTED_MESSAGE);
	} else {
		// The HTTP Request node hands the address over as `uri`, which the credential does not read.
		expect(message).toBe('The request address "undefined" is not a URL; nothing was sent.');
	}
	expect(nodeItems(run, 'Partner Payroll')[0].json).toMatchObject({ companyId, status: 'completed' });
	// One request reached the service: the Partner Payroll node's, with its company's token.
	const apiRequests = (await listRequests(sandbox)).filter((request) => request.path.startsWith('/api/'));
	expect(apiRequests.map((request) => [request.path, request.tokenCompanyId])).toEqual([
		[expect.stringContaining(`/companies/${companyId}/payroll-status`), companyId],
	]);
});

// n8n names the nodes of its custom extensions folder CUSTOM.<type> (n8n-core's CUSTOM_NODES_PACKAGE_NAME),
// and lists supported nodes of a credential only for a package loaded as a community package.
test(`the package loaded from n8n's custom extensions folder (~/.n8n/custom, as \`n8n-node dev\` does): ${enforced ? "n8n lists no node for the credential and refuses it to the package's own node" : 'the node reads with the credential'}`, async () => {
	const custom = await createInstance({ prefix: 'n8n-e2e-custom-folder-' });
	try {
		fs.rmSync(installedPackageDir(custom.userFolder), { recursive: true, force: true });
		const folder = path.join(custom.userFolder, '.n8n', 'custom', packageName);
		fs.mkdirSync(folder, { recursive: true });
		execFileSync('tar', ['xzf', custom.tarball, '--strip-components=1', '-C', folder]);
		const [row] = rows;
		const customCredential = { id: 'customFolderPartner1', name: 'Partner API (custom folder)', type: 'partnerPayrollPartnerApi' };
		await custom.cli.importCredentials([
			{
				...customCredential,
				data: { baseUrl: sandbox.apiBaseUrl, authServerUrl: sandbox.authServerUrl, companies: { company: [row] } },
			},
		]);
		const node = {
			...partnerPayrollNode('Partner Payroll', { resource: 'payroll', operation: 'getStatus', companyId: row.companyId, month: MONTH }, customCredential),
			type: 'CUSTOM.partnerPayroll',
			onError: 'continueRegularOutput',
		};
		const workflow = chainWorkflow('wfCustomFolder01', 'Partner Payroll from the custom extensions folder', [node]);
		await custom.cli.importWorkflows([workflow]);
		await sandboxControl(sandbox, 'DELETE', '/requests');
		const { run } = await custom.cli.executeWorkflow(workflow.id);

		const apiRequests = (await listRequests(sandbox)).filter((request) => request.path.startsWith('/api/'));
		if (enforced) {
			// The workflow fails (its On Error does not apply): the package's node cannot use its own credential.
			expect(run.data.resultData.error.message).toBe(RESTRICTED_MESSAGE);
			expect(apiRequests).toEqual([]);
		} else {
			expect(run.data.resultData.error).toBeUndefined();
			expect(nodeItems(run, 'Partner Payroll')[0].json).toMatchObject({ companyId: row.companyId, status: 'completed' });
			expect(apiRequests.map((request) => request.tokenCompanyId)).toEqual([row.companyId]);
		}
	} finally {
		await custom.dispose();
	}
});

test("a row deleted in the editor: no request carries another company's token, the shifted companies are served with their own, only the company whose token n8n dropped fails, named", async () => {
	await modal().locator('[data-test-id="fixed-collection-delete"]').nth(DELETED_ROW).click();
	await companyIdInputs().nth(rows.length - 2).waitFor();
	await save();
	// n8n's own behaviour, the trap: each row after the deleted one now holds the token of the row before it,
	// and the last company's token is gone.
	const stored = await storedRows();
	expect(stored).toHaveLength(rows.length - 1);
	expect(stored[DELETED_ROW].companyId).toBe(rows[DELETED_ROW + 1].companyId);
	expect(stored[DELETED_ROW].accessToken).toBe(rows[DELETED_ROW].accessToken);

	const before = rows[DELETED_ROW - 1].companyId; // its row kept its place
	const shifted = rows[DELETED_ROW + 1].companyId; // its token now sits in the next company's row
	const last = rows[rows.length - 1].companyId; // its token was dropped
	const status = (name, companyId) => ({
		...partnerPayrollNode(
			name,
			{ resource: 'payroll', operation: 'getStatus', companyId, month: MONTH },
			credential,
		),
		onError: 'continueRegularOutput',
	});
	const workflow = chainWorkflow('wfPartnerShifted', 'Partner credential after a deleted row', [
		status('Before the deleted row', before),
		status('Shifted', shifted),
		status('Last', last),
	]);
	await instance.cli.importWorkflows([workflow]);
	await sandboxControl(sandbox, 'DELETE', '/requests');
	const { run } = await instance.cli.executeWorkflow(workflow.id);

	expect(nodeItems(run, 'Before the deleted row')[0].json).toMatchObject({ companyId: before, status: 'completed' });
	expect(nodeItems(run, 'Shifted')[0].json).toMatchObject({ companyId: shifted, month: MONTH });
	expect(nodeItems(run, 'Shifted')[0].json.error).toBeUndefined();
	expect(nodeItems(run, 'Last')[0].json.error).toContain(`no row holds the token of company ${last} any more`);
	const apiRequests = (await listRequests(sandbox)).filter((request) => request.path.startsWith('/api/'));
	expect(apiRequests.map((request) => request.path)).toEqual([
		expect.stringContaining(`/companies/${before}/payroll-status`),
		expect.stringContaining(`/companies/${shifted}/payroll-status`),
	]);
	expect(apiRequests.map((request) => request.tokenCompanyId)).toEqual([before, shifted]);
});
