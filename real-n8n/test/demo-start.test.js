'use strict';
// What `npm start` does to a user folder it finds again, in a real n8n (CLI only, no server): the
// examples' credentials that n8n lacks are imported and the others kept as the user changed them; the
// banner's data comes from the sandbox and from what n8n holds; the examples are imported once, and
// `--reset-examples` restores a changed one and publishes the examples with triggers again.
const fs = require('node:fs');
const path = require('node:path');
const {
	ensureN8nInstalled,
	createInstance,
	startTestSandbox,
	ALL_SCOPES,
	exampleCredentials,
	newDemoWebhookSecret,
	importMissingCredentials,
	importExamples,
	shippedExamples,
	demoOverview,
	tokenCredentialId,
	OAUTH2_CREDENTIAL,
	DEMO_WEBHOOK,
	ALL_COMPANIES_CREDENTIAL,
	PARTNER_CONNECT_DEMO,
	PUBLISHED_EXAMPLE_IDS,
	repoRoot,
} = require('../lib');

jest.setTimeout(180_000);

const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
const CHANGED_EXAMPLE_ID = 'ex1LastMonthFiles';

let instance;
let sandbox;
let credentials;

beforeAll(async () => {
	await ensureN8nInstalled();
	sandbox = await startTestSandbox();
	instance = await createInstance({ prefix: 'n8n-e2e-demo-start-' });
	const apiKey = (companyId) => sandbox.issueToken({ companyId, scopes: ALL_SCOPES, kind: 'apiKey' }).access_token;
	credentials = exampleCredentials(sandbox, apiKey, { webhookSigningSecret: newDemoWebhookSecret(), n8nUrl: instance.url });
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.close();
});

/** Every workflow as n8n holds it, by id. */
async function exportedWorkflows() {
	const file = path.join(instance.userFolder, 'export-workflows.json');
	await instance.cli.runOk(['export:workflow', '--all', `--output=${file}`]);
	const workflows = JSON.parse(fs.readFileSync(file, 'utf8'));
	fs.rmSync(file);
	return Object.fromEntries(workflows.map((workflow) => [workflow.id, workflow]));
}

const byId = (a, b) => a.id.localeCompare(b.id);

test("every seeded company gets a credential; the user's renamed ones are kept; the banner shows n8n's names", async () => {
	// A user folder of an earlier version: two company credentials and the OAuth2 one, renamed by its user.
	const renamed = 'Client FR1002 (OAuth2)';
	const earlier = credentials
		.filter(({ id }) => [tokenCredentialId('FR1001'), tokenCredentialId('GB3001'), OAUTH2_CREDENTIAL.id].includes(id))
		.map((credential) => (credential.id === OAUTH2_CREDENTIAL.id ? { ...credential, name: renamed } : credential));
	await instance.cli.importCredentials(earlier);

	const { imported, present } = await importMissingCredentials(instance.cli, credentials);

	expect(imported.map(({ id }) => id).sort()).toEqual(
		[
			tokenCredentialId('FR1002'),
			tokenCredentialId('ES2001'),
			ALL_COMPANIES_CREDENTIAL.id,
			PARTNER_CONNECT_DEMO.credential.id,
			PARTNER_CONNECT_DEMO.n8nApiCredential.id,
			DEMO_WEBHOOK.credential.id,
		].sort(),
	);
	expect(sandbox.seed.companyIds).toEqual(['FR1001', 'FR1002', 'ES2001', 'GB3001']);

	const overview = demoOverview(sandbox, present);
	expect(overview.companies).toEqual(
		sandbox.seed.companies.map(({ id, name, country }) => ({ id, name, country, credential: `Partner Payroll sandbox token (${id})` })),
	);
	expect(overview.oauth2Credential).toBe(renamed);
	const clientsFile = JSON.parse(fs.readFileSync(path.join(repoRoot, 'sandbox', 'clients.json'), 'utf8'));
	const defaultClient = clientsFile.find(({ clientId }) => clientId === sandbox.seed.defaultClientId);
	expect(overview.newOAuth2Credential).toEqual({
		clientId: defaultClient.clientId,
		clientSecret: defaultClient.clientSecret,
		authServerUrl: sandbox.authServerUrl,
		apiBaseUrl: sandbox.apiBaseUrl,
	});
	expect(overview.otherCredentials).toEqual(
		[
			ALL_COMPANIES_CREDENTIAL.name,
			PARTNER_CONNECT_DEMO.credential.name,
			PARTNER_CONNECT_DEMO.n8nApiCredential.name,
			DEMO_WEBHOOK.credential.name,
		].sort(),
	);

	// A later start imports only what it made anew (here the signing secret); n8n lists the same credentials.
	const renewed = await importMissingCredentials(instance.cli, credentials, { renewedIds: [DEMO_WEBHOOK.credential.id] });
	expect(renewed.imported.map(({ id }) => id)).toEqual([DEMO_WEBHOOK.credential.id]);
	expect([...renewed.present].sort(byId)).toEqual([...present].sort(byId));
});

test('examples are imported once; reset restores a changed one and publishes the examples with triggers again', async () => {
	const importedIdsFile = path.join(instance.userFolder, 'imported-examples.json');
	const shipped = shippedExamples();
	expect((await importExamples(instance.cli, { importedIdsFile })).map(({ id }) => id)).toEqual(shipped.map(({ id }) => id));
	expect(await importExamples(instance.cli, { importedIdsFile })).toEqual([]);

	// What n8n's autosave leaves after a user's edit: the example with a node changed.
	const original = shipped.find(({ id }) => id === CHANGED_EXAMPLE_ID);
	const nodeName = "Get last month's payroll status";
	const changed = structuredClone(original);
	changed.nodes.find(({ name }) => name === nodeName).parameters = { resource: 'document', options: {} };
	await instance.cli.importWorkflows([changed]);
	const beforeReset = await exportedWorkflows();
	expect(beforeReset[CHANGED_EXAMPLE_ID].nodes.find(({ name }) => name === nodeName).parameters.resource).toBe('document');
	expect(PUBLISHED_EXAMPLE_IDS.map((id) => [id, beforeReset[id].active])).toEqual(PUBLISHED_EXAMPLE_IDS.map((id) => [id, true]));
	expect(await importExamples(instance.cli, { importedIdsFile })).toEqual([]);

	const restored = await importExamples(instance.cli, { importedIdsFile, reset: true });

	expect(restored.map(({ id }) => id)).toEqual(shipped.map(({ id }) => id));
	const afterReset = await exportedWorkflows();
	expect(afterReset[CHANGED_EXAMPLE_ID].nodes.find(({ name }) => name === nodeName).parameters).toEqual(
		original.nodes.find(({ name }) => name === nodeName).parameters,
	);
	expect(PUBLISHED_EXAMPLE_IDS.map((id) => [id, afterReset[id].active])).toEqual(PUBLISHED_EXAMPLE_IDS.map((id) => [id, true]));
	expect(JSON.parse(fs.readFileSync(importedIdsFile, 'utf8')).sort()).toEqual(shipped.map(({ id }) => id).sort());
});
