'use strict';
// Secrets stay home (issue 36; security review F3, F4, F10), end to end in a real n8n, one start for the three:
// - F3: an n8n API credential whose n8n URL answers 307 to another origin. The connect link and Remove Company
//   fail with an error that names the address to enter, and the other origin receives nothing (no key, no list).
// - F4: n8n's HTTP Request node with the Partner Payroll N8n API credential, aimed at another server. n8n 2.40.7
//   refuses it (the credential's restrictToSupportedNodes); n8n 2.8.4 ignores that field (quirk Q9) and the
//   node sends the key: this suite records each version's real behaviour.
// - F10: the Partner API credential's Client Secret kept as an expression ({{ $env… }}). A connect through the
//   link (which needs the resolved secret for the code exchange) and Remove Company leave it stored as the
//   expression, not as its value.
// The administrator's side of the link is played over HTTP, as a browser follows it (consentThroughLink): the
// link, the sandbox's consent form, the way back with the code.
const http = require('node:http');
const {
	ALL_SCOPES,
	DATA_TABLE_SCOPES,
	DEFAULT_CLIENT,
	N8nPublicApi,
	N8nRest,
	chainWorkflow,
	consentThroughLink,
	createInstance,
	ensureN8nInstalled,
	n8nRuntime,
	nodeItems,
	partnerCredential,
	partnerPayrollNode,
	sandboxControl,
	startTestSandbox,
} = require('../lib');

jest.setTimeout(180_000);
const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing

const RUNTIME = n8nRuntime();
/** Whether the n8n version enforces a credential's `restrictToSupportedNodes` (quirk Q9). */
const enforced = RUNTIME.enforcesNodeRestriction;

const SECRET_VARIABLE = 'PARTNER_PAYROLL_E2E_CLIENT_SECRET';
const SECRET_EXPRESSION = `={{ $env.${SECRET_VARIABLE} }}`;
const PARTNER = { id: 'ppSecretsPartner', name: 'Partner API (client secret as an expression)', type: 'partnerPayrollPartnerApi' };
const N8N_API = { id: 'ppSecretsN8nApi', name: 'n8n API (this n8n)', type: 'partnerPayrollN8nApi' };
const REDIRECTED_N8N_API = { id: 'ppSecretsN8nApiRedirected', name: 'n8n API (an address that redirects)', type: 'partnerPayrollN8nApi' };
// The scopes docs/partners.md names for the connect link and Remove Company: the list's write, the
// credential's Test, and the lock of the list in n8n's Data Tables (n8n 2.40.7 grants exactly these).
const KEY_SCOPES = ['credential:list', 'credential:update', ...DATA_TABLE_SCOPES];

// Two connect links: one writes through this n8n's API, one through the address that redirects.
const LINK = { workflowId: 'wfSecretsConnect', webhookId: 'partner-secrets-connect', n8nApi: N8N_API };
const REDIRECTED_LINK = { workflowId: 'wfSecretsConnectRedirected', webhookId: 'partner-secrets-redirected', n8nApi: REDIRECTED_N8N_API };
const TRIGGER = 'Connect link';

const KEPT = { companyId: 'FR1001', label: 'Kept company' };
// The open link names a new row by its company ID.
const CONNECTED = { companyId: 'FR1002', label: 'FR1002' };

let instance;
let sandbox;
let rest;
let api;
let linkKey;
let redirector;
let elsewhere;

/** A local server that records every request it receives (method, path, headers) and answers `answer`. */
async function startServer(answer) {
	const received = [];
	const server = http.createServer((request, response) => {
		received.push({ method: request.method, path: request.url, headers: request.headers });
		request.resume();
		request.on('end', () => answer(request, response));
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${server.address().port}`;
	return { url, received, close: () => new Promise((resolve) => server.close(resolve)) };
}

const connectLink = ({ webhookId }) => `${instance.url}/webhook/${webhookId}/connect`;

const connectWorkflow = ({ workflowId, webhookId, n8nApi }) => ({
	id: workflowId,
	name: `Connect link (${n8nApi.name})`,
	active: false,
	settings: { executionOrder: 'v1' },
	nodes: [
		{
			id: `${workflowId}-0`,
			name: TRIGGER,
			type: 'n8n-nodes-partner-payroll.partnerPayrollConnectTrigger',
			typeVersion: 1,
			position: [0, 0],
			webhookId,
			// The open link: the cases here are about secrets, not invitations (connect-link.test.js).
			parameters: { allowAnyCompany: true },
			credentials: {
				partnerPayrollPartnerApi: { id: PARTNER.id, name: PARTNER.name },
				partnerPayrollN8nApi: { id: n8nApi.id, name: n8nApi.name },
			},
		},
	],
	connections: {},
});

/** Partner Credential → Remove Company of `companyId`, writing through `n8nApi`. */
const removeCompanyWorkflow = (id, companyId, n8nApi) => {
	const node = partnerPayrollNode('Remove Company', { resource: 'partnerCredential', operation: 'removeCompany', companyId }, PARTNER);
	return chainWorkflow(id, `Remove ${companyId} (${n8nApi.name})`, [
		{ ...node, credentials: { ...node.credentials, partnerPayrollN8nApi: { id: n8nApi.id, name: n8nApi.name } } },
	]);
};

const stored = async () => (await instance.cli.exportCredential(PARTNER.id)).data;
const storedCompanyIds = async () => (await stored()).companies.company.map((row) => row.companyId);
/** True or false, never the value: a failing expectation must not print a secret. */
const holds = (text, secret) => String(text).includes(secret);

beforeAll(async () => {
	await ensureN8nInstalled();
	sandbox = await startTestSandbox();
	elsewhere = await startServer((request, response) => {
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end('{"data":[]}');
	});
	// What a moved domain or a canonicalising proxy does: the same path, on another origin, method and body kept.
	redirector = await startServer((request, response) => {
		response.writeHead(307, { location: `${elsewhere.url}${request.url}` });
		response.end();
	});
	instance = await createInstance({
		prefix: 'n8n-e2e-partner-secrets-',
		extraEnv: { [SECRET_VARIABLE]: DEFAULT_CLIENT.clientSecret, N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false' },
	});
	const [kept] = await sandboxControl(sandbox, 'POST', '/tokens', [{ companyId: KEPT.companyId, scopes: ALL_SCOPES }]);
	const partner = partnerCredential({
		...PARTNER,
		sandbox,
		client: DEFAULT_CLIENT,
		companies: [{ ...KEPT, token: kept.access_token }],
	});
	partner.data.clientSecret = SECRET_EXPRESSION;
	await instance.cli.importCredentials([
		partner,
		{ ...N8N_API, data: { url: instance.url, apiKey: '' } },
		{ ...REDIRECTED_N8N_API, data: { url: redirector.url, apiKey: '' } },
	]);
	await instance.cli.importWorkflows([connectWorkflow(LINK), connectWorkflow(REDIRECTED_LINK)]);
	for (const { workflowId } of [LINK, REDIRECTED_LINK]) await instance.cli.publishWorkflow(workflowId);
	await instance.start();
	rest = new N8nRest(instance.url);
	await rest.ensureOwner();
	api = new N8nPublicApi(instance.url, await rest.createApiKey('e2e-partner-secrets-executions'));
	// One key for both n8n API credentials: the redirecting address is given the same key as this n8n.
	linkKey = await rest.createApiKey('e2e-partner-secrets-link', { scopes: KEY_SCOPES });
	await rest.updateCredential({ ...N8N_API, data: { url: instance.url, apiKey: linkKey } });
	await rest.updateCredential({ ...REDIRECTED_N8N_API, data: { url: redirector.url, apiKey: linkKey } });
	for (const link of [LINK, REDIRECTED_LINK]) {
		await sandboxControl(sandbox, 'POST', '/clients/redirect-uris', {
			clientId: DEFAULT_CLIENT.clientId,
			redirectUri: connectLink(link),
		});
	}
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.close();
	await redirector?.close();
	await elsewhere?.close();
});

describe('F3: the n8n URL answers 307 to another origin', () => {
	test('the connect link, opened, sends nobody to the consent page: its execution names the address to enter, and the other origin receives nothing', async () => {
		// n8n's API is checked when the link is opened, before any consent.
		const opened = await fetch(connectLink(REDIRECTED_LINK), { redirect: 'manual' });
		expect(opened.status).toBe(503);
		const page = await opened.text();
		expect(page).toContain('Not connected yet');
		expect(holds(page, linkKey)).toBe(false);

		const [execution] = await api.finishedExecutions(REDIRECTED_LINK.workflowId, 1);
		const [{ json: item }] = nodeItems(execution, TRIGGER);
		expect(item).toMatchObject({ connected: false });
		expect(item.problem).toContain(`answered 307, a redirect to ${elsewhere.url}`);
		expect(item.problem).toContain(`enter ${elsewhere.url} as the n8n URL of the Partner Payroll n8n API credential`);
		expect(holds(JSON.stringify(execution), linkKey)).toBe(false);

		expect(redirector.received.length).toBeGreaterThan(0);
		expect(redirector.received.every(({ headers }) => headers['x-n8n-api-key'] === linkKey)).toBe(true);
		expect(elsewhere.received).toEqual([]);
		expect(await storedCompanyIds()).toEqual([KEPT.companyId]);
	});

	test('Remove Company fails with an error naming the address to enter; the list is unchanged, the other origin receives nothing', async () => {
		const workflow = removeCompanyWorkflow('wfSecretsRemoveRedirected', KEPT.companyId, REDIRECTED_N8N_API);
		await instance.cli.importWorkflows([workflow]);
		const { ok, run } = await instance.cli.executeWorkflow(workflow.id);
		expect(ok).toBe(false);
		const { message } = run.data.resultData.error;
		expect(message).toContain(`enter ${elsewhere.url} as the n8n URL of the Partner Payroll n8n API credential`);
		expect(holds(JSON.stringify(run), linkKey)).toBe(false);
		expect(elsewhere.received).toEqual([]);
		expect(await storedCompanyIds()).toEqual([KEPT.companyId]);
	});
});

describe(`F4: n8n's HTTP Request node with the Partner Payroll N8n API credential, in n8n ${RUNTIME.n8nVersion}`, () => {
	const HTTP_REQUEST = 'HTTP Request';
	const httpRequestWorkflow = (id) =>
		chainWorkflow(id, 'HTTP Request with the n8n API credential', [
			{
				name: HTTP_REQUEST,
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				parameters: {
					method: 'GET',
					url: `${elsewhere.url}/collect`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: N8N_API.type,
					options: {},
				},
				credentials: { [N8N_API.type]: { id: N8N_API.id, name: N8N_API.name } },
				onError: 'continueRegularOutput',
			},
		]);
	const received = () => elsewhere.received.filter(({ path }) => path === '/collect');

	test(`saving it: ${enforced ? 'refused' : 'accepted (this n8n ignores restrictToSupportedNodes)'}`, async () => {
		const saving = rest.createWorkflow(httpRequestWorkflow('wfSecretsHttpSaved'));
		if (!enforced) {
			expect((await saving).nodes.map((node) => node.type)).toContain('n8n-nodes-base.httpRequest');
			return;
		}
		const refused = await saving.then(
			() => null,
			(error) => error,
		);
		expect(refused?.status).toBe(400);
		expect(JSON.parse(refused.body).message).toContain(
			`Node "${HTTP_REQUEST}" (n8n-nodes-base.httpRequest) cannot use credential type "${N8N_API.type}"`,
		);
	});

	test(`running it (imported, so not checked on saving): ${enforced ? 'refused by n8n' : 'refused by the credential itself (this n8n ignores the restriction)'}; the other server receives nothing`, async () => {
		const workflow = httpRequestWorkflow('wfSecretsHttpRun');
		await instance.cli.importWorkflows([workflow]);
		const { run } = await instance.cli.executeWorkflow(workflow.id);
		const { error } = nodeItems(run, HTTP_REQUEST)[0].json;
		const message = typeof error === 'string' ? error : error?.message;
		if (enforced) {
			expect(message).toContain(`Credential type "${N8N_API.type}" is restricted to specific nodes`);
		} else {
			// Quirk Q9: this n8n lets the node use the credential; its authenticate signs its own n8n only.
			expect(message).toMatch(/n8n API key goes only to the credential's n8n URL/);
		}
		expect(received()).toEqual([]);
	});
});

describe('F10: the Client Secret kept as an expression', () => {
	test('a connect through the link works with its value and stores the company; the credential still holds the expression', async () => {
		const before = await stored();
		expect(before.clientSecret).toBe(SECRET_EXPRESSION);
		const answer = await consentThroughLink(connectLink(LINK), CONNECTED);
		expect(answer.status).toBe(302);
		expect(new URL(answer.location).searchParams.has('connected')).toBe(true);

		const after = await stored();
		expect(after.companies.company.map(({ companyId, label }) => ({ companyId, label }))).toEqual([KEPT, CONNECTED]);
		expect(after.clientSecret).toBe(SECRET_EXPRESSION);
		expect(after.clientId).toBe(before.clientId);
		expect(holds(JSON.stringify(after), DEFAULT_CLIENT.clientSecret)).toBe(false);
		const [execution] = await api.finishedExecutions(LINK.workflowId, 1);
		expect(nodeItems(execution, TRIGGER)[0].json).toMatchObject({ connected: true, ...CONNECTED });
	});

	test('Remove Company takes the company out; the credential still holds the expression', async () => {
		const workflow = removeCompanyWorkflow('wfSecretsRemove', CONNECTED.companyId, N8N_API);
		await instance.cli.importWorkflows([workflow]);
		const { ok, run } = await instance.cli.executeWorkflow(workflow.id);
		expect(ok).toBe(true);
		expect(nodeItems(run, 'Remove Company')[0].json).toEqual({
			companyId: CONNECTED.companyId,
			companyLabel: CONNECTED.label,
			removed: true,
		});
		const after = await stored();
		expect(after.companies.company.map(({ companyId }) => companyId)).toEqual([KEPT.companyId]);
		expect(after.clientSecret).toBe(SECRET_EXPRESSION);
		expect(holds(JSON.stringify(after), DEFAULT_CLIENT.clientSecret)).toBe(false);
	});
});
