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
	newDemoWebhookSecret,
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

const examples = fs
	.readdirSync(examplesDir)
	.filter((file) => file.endsWith('.json'))
	.map((file) => JSON.parse(fs.readFileSync(path.join(examplesDir, file), 'utf8')));
// Imported like the others but not executed here: "Ask about payroll" starts from a chat message and
// needs a language model whose credential the user fills in. real-n8n/test/agent.test.js runs it with a
// local fake model instead.
const NEEDS_A_MODEL = new Set(['ex4AskAboutPayroll']);
// Started by deliveries and polls only, never "Execute workflow": real-n8n/test/webhook-example.test.js runs it.
const STARTED_BY_EVENTS = new Set([DEMO_WEBHOOK.workflowId]);
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
	const credentials = exampleCredentials(sandbox, apiKey, {
		oauthTokenData: { access_token: oauthToken.access_token, token_type: 'bearer' },
		webhookSigningSecret: newDemoWebhookSecret(),
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
