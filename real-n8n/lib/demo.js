'use strict';
// What the example workflows (real-n8n/examples) expect to find: their credentials, by id, and a completed
// payroll "last month". Shared by `npm start` and the tests that run the examples. Also what `npm start`
// shows in its closing banner, and which examples it (re-)imports.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { writeSecretFile } = require('../../sandbox/secret-files');
const { DEFAULT_CLIENT, accessTokenCredential, oauth2Credential, partnerCredential } = require('./credentials');
const { BILLING_RECORD_SCOPES } = require('./billing-record');
const { examplesDir } = require('./paths');
const { listN8nCredentials } = require('./n8n-credentials');
const { N8nPublicApi } = require('./rest');
const { sandboxControl } = require('./sandbox');
const { productionPath, webhookSecretCredential, registerEndpoint } = require('./webhook-trigger');

// One access-token credential per seeded company of the sandbox, so a company added to the seed gets one.
const tokenCredentialId = (companyId) => `ppSandbox${companyId}`;
const tokenCredentialName = (companyId) => `Partner Payroll sandbox token (${companyId})`;
const OAUTH2_CREDENTIAL = Object.freeze({ id: 'ppSandboxOAuth2', name: 'Partner Payroll sandbox OAuth2 (n8n-local)' });

// The example with the webhook trigger (real-n8n/examples/payroll-webhook-and-poll.json): its signing-secret
// credential, and the webhook id that makes its production URL.
const DEMO_WEBHOOK = Object.freeze({
	workflowId: 'ex5PayrollWebhookAndPoll',
	webhookId: 'partner-payroll-demo',
	credential: Object.freeze({ id: 'ppSandboxWebhook', name: 'Partner Payroll sandbox webhook secret' }),
});

// The Partner API credential of the sandbox's partner application (n8n-local), empty at the start: the connect
// link writes each connected company into it, and the partner example serves the companies it holds.
const CONNECT_LINK_CREDENTIAL = Object.freeze({ id: 'ppSandboxPartnerConnect', name: 'Partner Payroll sandbox partner (connect link)' });

// Every seeded company in one Partner API credential (their company API keys, bound to their companies): ready
// for the user's own workflows; no example uses it.
const ALL_COMPANIES_CREDENTIAL = Object.freeze({ id: 'ppSandboxPartner', name: 'Partner Payroll sandbox partner (all companies)' });

// The partner example (real-n8n/examples/partner-payment-files.json): the companies connected through the link,
// and a webhook endpoint of its own that signs with the same secret as the first example's.
const PARTNER_DEMO = Object.freeze({
	workflowId: 'ex6PartnerPaymentFiles',
	webhookId: 'partner-payroll-partner-demo',
	credential: CONNECT_LINK_CREDENTIAL,
});

// The connect example (real-n8n/examples/partner-connect-link.json): the connect link's Partner API credential,
// and the n8n API credential through which the link writes each connected company into it, holding a
// public-API key of the owner.
const PARTNER_CONNECT_DEMO = Object.freeze({
	workflowId: 'ex7PartnerConnectLink',
	webhookId: 'partner-payroll-connect-demo',
	credential: CONNECT_LINK_CREDENTIAL,
	n8nApiCredential: Object.freeze({ id: 'ppSandboxN8nApi', name: 'Partner Payroll sandbox n8n API (this n8n)' }),
	// The label of the owner's API key in Settings → n8n API (unique per user in n8n).
	apiKeyLabel: 'Partner Payroll connect link (npm start)',
	// What the examples need of n8n's public API: write the credential (connect, Remove Company), list
	// credentials (the n8n API credential's Test), and Data Tables for the company list's lock and the
	// record of billing declarations (the agent example's Create; its scopes include the lock's). n8n 2.40.7 grants exactly these; n8n 2.8.4 without a licence for scoped keys gives
	// every scope of the owner's role whatever is asked.
	apiKeyScopes: Object.freeze(['credential:list', 'credential:update', ...BILLING_RECORD_SCOPES]),
});

/** The examples `npm start` publishes: those started by the sandbox's deliveries, by polls and by the connect link. */
const PUBLISHED_EXAMPLE_IDS = Object.freeze([DEMO_WEBHOOK.workflowId, PARTNER_DEMO.workflowId, PARTNER_CONNECT_DEMO.workflowId]);

/** A new signing secret for the demo's sandbox endpoint, as the webhook portal would show it. */
const newDemoWebhookSecret = () => `whsec_${crypto.randomBytes(24).toString('base64')}`;

/** The production URL of the webhook example in the n8n at `n8nUrl`. */
const demoWebhookUrl = (n8nUrl) => `${n8nUrl}${productionPath(DEMO_WEBHOOK.webhookId)}`;

/** The production URL of the partner example in the n8n at `n8nUrl`. */
const partnerDemoWebhookUrl = (n8nUrl) => `${n8nUrl}${productionPath(PARTNER_DEMO.webhookId)}`;

/**
 * The webhook example's endpoint in the sandbox (registered as a partner does in the provider's portal):
 * registered when the sandbox has none at `url` (its state file keeps it across starts); its secret
 * switched to `secret` when the demo's signing secret was made anew. Returns the endpoint.
 */
async function ensureDemoEndpoint(sandbox, { url, secret }) {
	const existing = (await sandboxControl(sandbox, 'GET', '/webhooks')).find((endpoint) => endpoint.url === url);
	if (!existing) return registerEndpoint(sandbox, { url, secret });
	if (existing.secret === secret) return existing;
	return sandboxControl(sandbox, 'POST', '/webhooks/rotate', { endpointId: existing.id, secret });
}

/** The connect link's address in the n8n at `n8nUrl`: the connect example's production URL. */
const connectLinkUrl = (n8nUrl) => `${n8nUrl}/webhook/${PARTNER_CONNECT_DEMO.webhookId}/connect`;

/** The n8n API credential of the connect example: the n8n at `n8nUrl` as it reaches itself, and `apiKey`. */
const n8nApiCredential = ({ n8nUrl, apiKey }) => ({
	...PARTNER_CONNECT_DEMO.n8nApiCredential,
	type: 'partnerPayrollN8nApi',
	data: { url: n8nUrl, apiKey },
});

/**
 * The connect example's two credentials: the Partner API one of the sandbox's default client with no company
 * yet, and the n8n API one (the n8n at `n8nUrl`, its `apiKey`; empty until n8n runs and has an owner, see
 * ensureConnectLink).
 */
function connectExampleCredentials(sandbox, { n8nUrl, apiKey = '' }) {
	return [
		partnerCredential({ ...PARTNER_CONNECT_DEMO.credential, sandbox, companies: [], client: DEFAULT_CLIENT }),
		n8nApiCredential({ n8nUrl, apiKey }),
	];
}

/** The n8n API key kept in `apiKeyFile` by ensureConnectLink, or '' when there is none yet. */
const keptApiKey = (apiKeyFile) => (fs.existsSync(apiKeyFile) ? JSON.parse(fs.readFileSync(apiKeyFile, 'utf8')).apiKey : '');

/**
 * What the connect example needs once its n8n runs with an owner signed in on `rest` (N8nRest), so that the
 * link works with no hand step:
 * - an API key of the owner, kept in `apiKeyFile` (mode 0600) across starts: the kept one while n8n's public
 *   API accepts it, else a new one (the owner's earlier key of the same label deleted first: n8n wants labels
 *   unique), written into the n8n API credential;
 * - the link registered as a redirect URI of the sandbox's default client, as the provider's portal does
 *   (the sandbox forgets it at a restart).
 * Returns `{connectLink, newApiKey}`; the key itself is never returned or printed.
 */
async function ensureConnectLink({ rest, n8nUrl, sandbox, apiKeyFile }) {
	const { apiKeyLabel: label, apiKeyScopes: scopes } = PARTNER_CONNECT_DEMO;
	const kept = keptApiKey(apiKeyFile);
	const newApiKey = !kept || !(await new N8nPublicApi(n8nUrl, kept).acceptsKey());
	if (newApiKey) {
		await rest.deleteApiKeysLabelled(label);
		const apiKey = await rest.createApiKey(label, { scopes });
		await rest.updateCredential(n8nApiCredential({ n8nUrl, apiKey }));
		// Kept once the credential holds it: a start stopped in between makes a new one next time.
		writeSecretFile(apiKeyFile, `${JSON.stringify({ apiKey }, null, 2)}\n`);
	}
	const connectLink = connectLinkUrl(n8nUrl);
	await sandboxControl(sandbox, 'POST', '/clients/redirect-uris', {
		clientId: DEFAULT_CLIENT.clientId,
		redirectUri: connectLink,
	});
	return { connectLink, newApiKey };
}

/**
 * The examples' credentials: an access-token one for every seeded company of `sandbox`, the OAuth2 one, the
 * "all companies" partner one (every seeded company, the same tokens), with `n8nUrl` (the n8n they go into) the connect
 * example's two (its n8n API one holding `n8nApiKey`, empty by default) and, with `webhookSigningSecret`, the
 * webhook examples' signing-secret one. `tokenOf(companyId)` gives the access
 * token of a company; `oauthTokenData` makes the OAuth2 one connected (the demo leaves it to the user's
 * "Connect").
 */
function exampleCredentials(sandbox, tokenOf, { oauthTokenData, webhookSigningSecret, n8nUrl, n8nApiKey } = {}) {
	const credentials = sandbox.seed.companyIds.map((companyId) =>
		accessTokenCredential({
			id: tokenCredentialId(companyId),
			name: tokenCredentialName(companyId),
			sandbox,
			accessToken: tokenOf(companyId),
		}),
	);
	credentials.push(
		oauth2Credential({ ...OAUTH2_CREDENTIAL, sandbox, client: DEFAULT_CLIENT, tokenData: oauthTokenData }),
	);
	// Company API keys belong to no client: the credential names none, so its Test does not expect one.
	const companies = sandbox.seed.companies.map(({ id, name }) => ({ companyId: id, label: name, token: tokenOf(id) }));
	credentials.push(partnerCredential({ ...ALL_COMPANIES_CREDENTIAL, sandbox, companies }));
	if (n8nUrl) credentials.push(...connectExampleCredentials(sandbox, { n8nUrl, apiKey: n8nApiKey }));
	if (webhookSigningSecret) {
		credentials.push(webhookSecretCredential({ ...DEMO_WEBHOOK.credential, signingSecret: webhookSigningSecret }));
	}
	return credentials;
}

/** The example workflows as shipped (real-n8n/examples/*.json). */
function shippedExamples() {
	return fs
		.readdirSync(examplesDir)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => JSON.parse(fs.readFileSync(path.join(examplesDir, file), 'utf8')));
}

/** `workflow` with every node that has Poll Times polling on `pollTimes`. */
const withPollTimes = (workflow, pollTimes) => ({
	...workflow,
	nodes: workflow.nodes.map((node) =>
		node.parameters?.pollTimes ? { ...node, parameters: { ...node.parameters, pollTimes } } : node,
	),
});

/**
 * Imports the shipped examples into the n8n of `cli` and returns those imported. Once only: the ids are
 * noted in `importedIdsFile`, and a later call imports new examples only, so the user's changes survive;
 * with `reset`, every example again, same ids, over the user's changed copy. The examples with triggers
 * (PUBLISHED_EXAMPLE_IDS) are published after their import, so the sandbox's deliveries and polls start them.
 * For a test about some of them: `only` (ids) imports these alone, and `pollTimes` makes their polling
 * triggers poll on that schedule instead of their own (an hour is longer than a test waits).
 */
async function importExamples(cli, { importedIdsFile, reset = false, only, pollTimes }) {
	const importedIds = fs.existsSync(importedIdsFile) ? JSON.parse(fs.readFileSync(importedIdsFile, 'utf8')) : [];
	const examples = shippedExamples()
		.filter((workflow) => (reset || !importedIds.includes(workflow.id)) && (!only || only.includes(workflow.id)))
		.map((workflow) => (pollTimes ? withPollTimes(workflow, pollTimes) : workflow));
	if (examples.length === 0) return [];
	// n8n 2.40's import unpublishes a published workflow it overwrites, and refuses to when no owner is set
	// up yet ("You do not have permission to deactivate this workflow"); unpublish:workflow does it as the
	// system. It fails when the user deleted the example: then there is nothing to unpublish.
	for (const id of PUBLISHED_EXAMPLE_IDS) {
		if (reset && importedIds.includes(id)) await cli.run(['unpublish:workflow', `--id=${id}`]);
	}
	await cli.importWorkflows(examples);
	for (const id of PUBLISHED_EXAMPLE_IDS) {
		if (examples.some((workflow) => workflow.id === id)) await cli.publishWorkflow(id);
	}
	const ids = [...new Set([...importedIds, ...examples.map((workflow) => workflow.id)])];
	fs.writeFileSync(importedIdsFile, `${JSON.stringify(ids, null, 2)}\n`);
	return examples;
}

/**
 * Imports the `credentials` (records as exampleCredentials makes them) that the n8n of `cli` lacks (a new
 * user folder, a company seeded since, one the user deleted), and those of `renewedIds` (their secret was
 * made anew); leaves the others as the user changed them. Returns `{imported, present}`: the records
 * imported, and the `{id, name, type}` of every credential n8n then holds.
 */
async function importMissingCredentials(cli, credentials, { renewedIds = [] } = {}) {
	const before = await listN8nCredentials(cli);
	const imported = credentials.filter(
		(credential) => renewedIds.includes(credential.id) || !before.some(({ id }) => id === credential.id),
	);
	if (imported.length > 0) await cli.importCredentials(imported);
	const importedIds = new Set(imported.map(({ id }) => id));
	const present = [
		...before.filter(({ id }) => !importedIds.has(id)),
		...imported.map(({ id, name, type }) => ({ id, name, type })),
	];
	return { imported, present };
}

/**
 * What the closing banner of `npm start` shows, from the running sandbox (its seed and default client) and
 * from `n8nCredentials`, the `{id, name, type}` records n8n holds (so a renamed credential shows its name):
 * each seeded company with the name of its ready access-token credential (null when n8n has none), the
 * OAuth2 credential, what a new OAuth2 credential needs, and the user's other Partner Payroll credentials.
 */
function demoOverview(sandbox, n8nCredentials) {
	const nameOf = (id) => n8nCredentials.find((credential) => credential.id === id)?.name ?? null;
	const companies = sandbox.seed.companies.map(({ id, name, country }) => ({
		id,
		name,
		country,
		credential: nameOf(tokenCredentialId(id)),
	}));
	const client = sandbox.seed.clients.find((candidate) => candidate.clientId === sandbox.seed.defaultClientId);
	const shownIds = new Set([...companies.map(({ id }) => tokenCredentialId(id)), OAUTH2_CREDENTIAL.id]);
	return {
		companies,
		oauth2Credential: nameOf(OAUTH2_CREDENTIAL.id),
		newOAuth2Credential: {
			clientId: client.clientId,
			clientSecret: client.clientSecret,
			authServerUrl: sandbox.authServerUrl,
			apiBaseUrl: sandbox.apiBaseUrl,
		},
		otherCredentials: n8nCredentials
			.filter((credential) => !shownIds.has(credential.id) && credential.type.startsWith('partnerPayroll'))
			.map((credential) => credential.name)
			.sort(),
	};
}

/** YYYYMM of the month before `now` (UTC), as the examples compute it with $now. */
function lastMonth(now = new Date()) {
	const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
	return `${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The sandbox completes payroll months up to 202610 only; complete `month` whatever today is. */
async function ensurePayrollCompleted(sandbox, companyId, month) {
	if (sandbox.seed.payrollStatus(companyId, month).status === 'completed') return;
	const response = await fetch(`${sandbox.url}/_sandbox/payroll-status`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ companyId, month, status: 'completed' }),
	});
	if (!response.ok) throw new Error(`The sandbox refused to complete ${month}: ${await response.text()}`);
}

module.exports = {
	tokenCredentialId,
	OAUTH2_CREDENTIAL,
	ALL_COMPANIES_CREDENTIAL,
	DEMO_WEBHOOK,
	PARTNER_DEMO,
	PARTNER_CONNECT_DEMO,
	PUBLISHED_EXAMPLE_IDS,
	newDemoWebhookSecret,
	connectLinkUrl,
	connectExampleCredentials,
	ensureConnectLink,
	keptApiKey,
	demoWebhookUrl,
	partnerDemoWebhookUrl,
	ensureDemoEndpoint,
	exampleCredentials,
	shippedExamples,
	importExamples,
	importMissingCredentials,
	demoOverview,
	lastMonth,
	ensurePayrollCompleted,
};
