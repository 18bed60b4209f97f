'use strict';
// The example "payroll run by webhook, polling as a safety net" (real-n8n/examples/payroll-webhook-and-poll.json)
// as `npm start` sets it up: imported with the example credentials, published, its production URL registered
// in the sandbox. A completion in the sandbox reaches "New payroll month" once, through Remove Duplicates on
// dedupeKey. (The polling trigger's items carry dedupeKey from the lead's change of the polling trigger; until
// then this suite shows the webhook side of the merge only.)
const fs = require('node:fs');
const path = require('node:path');
const {
	examplesDir,
	ensureN8nInstalled,
	createInstance,
	startTestSandbox,
	sandboxControl,
	ALL_SCOPES,
	exampleCredentials,
	DEMO_WEBHOOK,
	newDemoWebhookSecret,
	demoWebhookUrl,
	registerEndpoint,
	N8nRest,
	N8nPublicApi,
} = require('../lib');

jest.setTimeout(180_000);
const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
const LAST_NODE = 'New payroll month';

const example = JSON.parse(
	fs.readFileSync(path.join(examplesDir, 'payroll-webhook-and-poll.json'), 'utf8'),
);

let instance;
let sandbox;
let api;

beforeAll(async () => {
	await ensureN8nInstalled();
	sandbox = await startTestSandbox();
	instance = await createInstance({ prefix: 'n8n-e2e-webhook-example-' });
	const apiKey = (companyId) =>
		sandbox.issueToken({ companyId, scopes: ALL_SCOPES, kind: 'apiKey' }).access_token;
	const signingSecret = newDemoWebhookSecret();
	await instance.cli.importCredentials(
		exampleCredentials(sandbox, apiKey, { webhookSigningSecret: signingSecret }),
	);
	await instance.cli.importWorkflows([example]);
	await instance.cli.publishWorkflow(DEMO_WEBHOOK.workflowId);
	await instance.start();
	const rest = new N8nRest(instance.url);
	await rest.ensureOwner();
	api = new N8nPublicApi(instance.url, await rest.createApiKey('e2e-webhook-example'));
	await registerEndpoint(sandbox, { url: demoWebhookUrl(instance.url), secret: signingSecret });
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.close();
});

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const lastNodeItems = async () =>
	(await api.executions(DEMO_WEBHOOK.workflowId))
		.filter((execution) => execution.stoppedAt)
		.flatMap(
			(execution) => execution.data.resultData.runData[LAST_NODE]?.[0]?.data?.main?.[0] ?? [],
		)
		.map((item) => item.json);

test('the example is published as imported: both triggers, Remove Duplicates on dedupeKey', async () => {
	const workflow = await api.get(`/workflows/${DEMO_WEBHOOK.workflowId}`);
	expect(workflow.active).toBe(true);
	const types = workflow.nodes.map((node) => node.type).sort();
	expect(types).toEqual([
		'n8n-nodes-base.noOp',
		'n8n-nodes-base.removeDuplicates',
		'n8n-nodes-partner-payroll.partnerPayrollTrigger',
		'n8n-nodes-partner-payroll.partnerPayrollWebhookTrigger',
	]);
	const dedupe = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.removeDuplicates');
	expect(dedupe.parameters.dedupeValue).toBe('={{ $json.dedupeKey }}');
});

test('a completion reaches the end once; a re-send of the month (new message id) does not', async () => {
	await sandboxControl(sandbox, 'POST', '/payroll-status', {
		companyId: 'GB3001',
		month: '202611',
		status: 'completed',
		executionEndDate: '2026-11-27T18:00:00.000Z',
	});
	for (let i = 0; i < 60 && (await lastNodeItems()).length < 1; i += 1) await pause(500);
	await sandboxControl(sandbox, 'POST', '/webhooks/payroll-run', {
		companyId: 'GB3001',
		month: '202611',
	});
	await pause(3_000);
	expect(await lastNodeItems()).toEqual([
		expect.objectContaining({
			dedupeKey: 'payroll:GB3001:202611',
			source: 'webhook',
			isRerun: false,
		}),
	]);
});
