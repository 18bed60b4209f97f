'use strict';
// The example workflows `npm start` imports (real-n8n/examples) run as they are, with the credentials
// `npm start` creates, against the sandbox.
const fs = require('node:fs');
const path = require('node:path');
const {
	examplesDir,
	ensureN8nInstalled,
	createInstance,
	startTestSandbox,
	ALL_SCOPES,
	exampleCredentials,
	DEMO_WEBHOOK,
	PARTNER_DEMO,
	PARTNER_CONNECT_DEMO,
	newDemoWebhookSecret,
	repoRoot,
	packageName,
	n8nRuntime,
	lastMonth,
	ensurePayrollCompleted,
	nodeItems,
	binaryBytes,
	sha256,
} = require('../lib');

jest.setTimeout(180_000);

const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
const OAUTH_COMPANY = 'ES2001';

let instance;
let sandbox;
let batch;
let credentials;

const examples = fs
	.readdirSync(examplesDir)
	.filter((file) => file.endsWith('.json'))
	.map((file) => JSON.parse(fs.readFileSync(path.join(examplesDir, file), 'utf8')));
// Imported like the others but not executed here: "Ask about payroll" and "declares billing after a person
// approves" start from a chat message and need a language model (and a mail server) whose credentials the
// user fills in. real-n8n/test/agent.test.js and agent-review.test.js run them with local fakes instead.
const NEEDS_A_MODEL = new Set(['ex4AskAboutPayroll', 'ex8DeclareWithReview']);
// Started by deliveries, polls and the connect link only, never "Execute workflow": webhook-example.test.js,
// partner-example.test.js and connect-link.test.js run them; they are also checked here as n8n imported them
// (below).
const STARTED_BY_EVENTS = new Set([DEMO_WEBHOOK.workflowId, PARTNER_DEMO.workflowId, PARTNER_CONNECT_DEMO.workflowId]);
const executed = examples.filter(
	(example) => !NEEDS_A_MODEL.has(example.id) && !STARTED_BY_EVENTS.has(example.id),
);

beforeAll(async () => {
	await ensureN8nInstalled();
	sandbox = await startTestSandbox();
	await ensurePayrollCompleted(sandbox, 'FR1001', lastMonth());
	instance = await createInstance({ prefix: 'n8n-e2e-examples-' });
	const apiKey = (companyId) => sandbox.issueToken({ companyId, scopes: ALL_SCOPES, kind: 'apiKey' }).access_token;
	// As if the user had clicked "Connect" and picked ES2001.
	const oauthToken = sandbox.issueToken({ companyId: OAUTH_COMPANY, scopes: ALL_SCOPES, clientId: 'n8n-local' });
	credentials = exampleCredentials(sandbox, apiKey, {
		oauthTokenData: { access_token: oauthToken.access_token, token_type: 'bearer' },
		webhookSigningSecret: newDemoWebhookSecret(),
		n8nUrl: instance.url,
	});
	await instance.cli.importCredentials(credentials);
	await instance.cli.importWorkflows(examples);
	batch = await instance.cli.executeBatch(executed.map((example) => example.id));
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.close();
});

test('every example workflow succeeds', () => {
	expect(executed.length).toBeGreaterThanOrEqual(3);
	expect(examples.filter((example) => NEEDS_A_MODEL.has(example.id))).toHaveLength(NEEDS_A_MODEL.size);
	expect(batch.errors).toEqual([]);
	expect(Object.keys(batch.runs).sort()).toEqual(executed.map((example) => example.id).sort());
});

test("last month's payroll: completed, so the accounting CSV and the payment file are downloaded", () => {
	const run = batch.runs.ex1LastMonthFiles;
	const month = lastMonth();
	expect(nodeItems(run, "Get last month's payroll status")[0].json.status).toBe('completed');
	const [csv] = nodeItems(run, 'Download accounting CSV');
	const [paymentFile] = nodeItems(run, 'Download payment file');
	expect(csv.binary.data.fileName).toBe(`accounting-FR1001-${month}.csv`);
	expect(sha256(binaryBytes(instance.userFolder, csv.binary.data))).toBe(sha256(sandbox.seed.accountingCsv('FR1001', month)));
	expect(sha256(binaryBytes(instance.userFolder, paymentFile.binary.data))).toBe(
		sha256(sandbox.seed.paymentFile('FR1001', month)),
	);
});

test('UK income-tax documents: every P60 with its PDF', () => {
	const run = batch.runs.ex2UkTaxDocuments;
	const p60s = sandbox.seed.documents('GB3001').filter((document) => document.listing === 'incomeTaxes' && document.type === 'P60');
	const items = nodeItems(run, 'Only P60 certificates');
	expect(p60s.length).toBeGreaterThan(0);
	expect(items.map((item) => item.json.documentId)).toEqual(p60s.map((document) => document.documentId));
	for (const item of items) {
		expect(item.binary.data.mimeType).toBe('application/pdf');
		expect(sha256(binaryBytes(instance.userFolder, item.binary.data))).toBe(
			sha256(sandbox.seed.document('GB3001', item.json.documentId)),
		);
	}
});

test('company through OAuth2: the record of the connected company', () => {
	const run = batch.runs.ex3CompanyOAuth2;
	expect(nodeItems(run, 'Get the connected company')[0].json).toMatchObject({ id: OAUTH_COMPANY, country: 'ES' });
});

/** The description of a node `type` at `typeVersion`, from this n8n's n8n-nodes-base or from the built package. */
function nodeDescription(type, typeVersion) {
	const [owner, name] = type.split('.');
	const versionOf = (description) => [description.version].flat().includes(typeVersion);
	if (owner === 'n8n-nodes-base') {
		const nodesFile = path.join(n8nRuntime().installDir, 'node_modules', 'n8n-nodes-base', 'dist', 'types', 'nodes.json');
		return JSON.parse(fs.readFileSync(nodesFile, 'utf8')).find((description) => description.name === name && versionOf(description));
	}
	expect(owner).toBe(packageName);
	const folder = name.charAt(0).toUpperCase() + name.slice(1);
	const module = require(path.join(repoRoot, 'dist', 'nodes', folder, `${folder}.node.js`));
	const description = new module[folder]().description;
	return versionOf(description) ? description : undefined;
}

/** Every workflow as n8n imported it, exported once: each export is an n8n process of its own. */
let exportedWorkflows;
async function exportWorkflows() {
	const file = path.join(instance.userFolder, 'export-workflows.json');
	await instance.cli.runOk(['export:workflow', '--all', `--output=${file}`]);
	return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The example `workflowId` as n8n imported it, and what in it this n8n or npm start's credentials lack. */
async function importedExample(workflowId) {
	exportedWorkflows ??= exportWorkflows();
	const imported = (await exportedWorkflows).find((workflow) => workflow.id === workflowId);
	if (!imported) throw new Error(`n8n exported no workflow ${workflowId}`);
	const credentialIds = new Set(credentials.map(({ id }) => id));
	const problems = imported.nodes.flatMap((node) => {
		const description = nodeDescription(node.type, node.typeVersion);
		if (!description) return [`${node.name}: ${node.type} ${node.typeVersion} is not in this n8n`];
		// n8n adds Poll Times to every polling node when it loads it.
		const properties = new Set([...description.properties.map(({ name }) => name), ...(description.polling ? ['pollTimes'] : [])]);
		const declared = new Set((description.credentials ?? []).map(({ name }) => name));
		return [
			...Object.keys(node.parameters).filter((parameter) => !properties.has(parameter)).map((parameter) => `${node.name}: no parameter ${parameter}`),
			...Object.entries(node.credentials ?? {})
				.filter(([type, { id }]) => !declared.has(type) || !credentialIds.has(id))
				.map(([type, { id }]) => `${node.name}: credential ${type} ${id} is not one npm start makes for it`),
		];
	});
	return { imported, problems };
}

test.each([...STARTED_BY_EVENTS])(
	'the example %s, started by events, as n8n imported it: every node exists in this n8n at its version, with the parameters and credentials it sets',
	async (workflowId) => {
		const { imported, problems } = await importedExample(workflowId);
		const shipped = examples.find((example) => example.id === workflowId);
		expect(imported.nodes.map(({ name, type }) => [name, type])).toEqual(shipped.nodes.map(({ name, type }) => [name, type]));
		expect(problems).toEqual([]);
	},
);

test('the payment-files example: both triggers, the download and the webhook trigger\'s company list use one Partner API credential, the one the connect link fills', async () => {
	const { imported } = await importedExample(PARTNER_DEMO.workflowId);
	const partnerNodes = imported.nodes.filter((node) => node.credentials?.partnerPayrollPartnerApi?.id === PARTNER_CONNECT_DEMO.credential.id);
	expect(partnerNodes.map(({ name }) => name).sort()).toEqual(
		['Download the company\'s payment file', 'Payroll completed (poll, all companies)', 'Payroll runs and connection changes (webhook)'].sort(),
	);
});

test('the connect example: its link writes into the Partner API credential of the partner application, through the n8n API credential', async () => {
	const { imported } = await importedExample(PARTNER_CONNECT_DEMO.workflowId);
	const [trigger] = imported.nodes.filter((node) => node.type === `${packageName}.partnerPayrollConnectTrigger`);
	expect(trigger.webhookId).toBe(PARTNER_CONNECT_DEMO.webhookId);
	expect(trigger.credentials).toEqual({
		partnerPayrollPartnerApi: { ...PARTNER_CONNECT_DEMO.credential },
		partnerPayrollN8nApi: { ...PARTNER_CONNECT_DEMO.n8nApiCredential },
	});
	const partner = credentials.find(({ id }) => id === PARTNER_CONNECT_DEMO.credential.id);
	expect(partner.data).toMatchObject({ clientId: 'n8n-local', companies: { company: [] } });
	expect(partner.data.clientSecret).not.toBe('');
});
