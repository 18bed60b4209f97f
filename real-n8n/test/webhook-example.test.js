'use strict';
// The example "payroll run by webhook, polling as a safety net" (real-n8n/examples/payroll-webhook-and-poll.json)
// as `npm start` sets it up: imported with the example credentials, published, its production URL registered
// in the sandbox, n8n's default concurrency. One change: its polling trigger polls on the lab's schedule
// (every 10 s, lib/poll-schedule.js) instead of every hour.
//
// The example is both triggers → the download → the store, nothing between: the triggers merge themselves.
// Two runs of FR1001, each seen by both triggers, each stored once:
// - this month, delivered by the webhook at once; the next polls find it completed too;
// - last month, whose delivery is lost (no endpoint when it completes): the poll starts it, and the same
//   run delivered late by the webhook starts nothing.
const fs = require('node:fs');
const path = require('node:path');
const {
	finishedExecutions: finishedExecutionsOf,
	waitUntil: waitForExample,
} = require('./support/example-runs');
const {
	ALL_SCOPES,
	DEMO_WEBHOOK,
	N8nPublicApi,
	N8nRest,
	createInstance,
	demoWebhookUrl,
	ensureN8nInstalled,
	exampleCredentials,
	filesFolder,
	importExamples,
	listRequests,
	monthFromNow,
	newDemoWebhookSecret,
	nodeItems,
	pollSchedule,
	registerEndpoint,
	sandboxControl,
	setPayrollStatus,
	sha256,
	shippedExamples,
	startTestSandbox,
	statusPollsOf,
	waitForStatusPolls,
} = require('../lib');

const SCHEDULE = pollSchedule();
jest.setTimeout(SCHEDULE.waitMs(3) + 60_000);
const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
const WAIT_MS = SCHEDULE.waitMs(2);

const EXAMPLE = shippedExamples().find(({ id }) => id === DEMO_WEBHOOK.workflowId);
const nodeNamed = (type) => EXAMPLE.nodes.find((node) => node.type.endsWith(type)).name;
const NODES = {
	webhook: nodeNamed('.partnerPayrollWebhookTrigger'),
	poll: nodeNamed('.partnerPayrollTrigger'),
	store: nodeNamed('.readWriteFile'),
};
const COMPANY = 'FR1001';
// The example sets no time zone: n8n's own, UTC in the lab (lib/env.js).
const THIS_MONTH = monthFromNow(0, 'UTC');
const LAST_MONTH = monthFromNow(-1, 'UTC');

let instance;
let sandbox;
let api;
let signingSecret;

/** Resolves once `check()` is true; fails naming `what` after WAIT_MS. */
const waitUntil = (what, check) => waitForExample(what, check, WAIT_MS);

/** The example's executions (oldest first), once every one of them has finished. */
const finishedExecutions = () => finishedExecutionsOf(api, DEMO_WEBHOOK.workflowId);

/** Per execution that stored a file: which trigger started it, and the month it stored. */
async function storedRuns() {
	const executions = (await finishedExecutions()) ?? [];
	return executions
		.filter((execution) => nodeItems(execution, NODES.store).length > 0)
		.map((execution) => {
			const [trigger] = [NODES.webhook, NODES.poll].filter(
				(name) => nodeItems(execution, name).length > 0,
			);
			return {
				trigger,
				months: nodeItems(execution, NODES.store).map((item) => item.json.month),
				status: execution.status,
			};
		});
}

/** The moments (ms) at which a poll asked the status of `month` and got an answer. */
async function pollsOf(month) {
	const statusPath = `/api/v1/companies/${COMPANY}/payroll-status`;
	return (await listRequests(sandbox))
		.filter(
			(request) =>
				request.path === statusPath && request.query?.date === month && request.status === 200,
		)
		.map((request) => Date.parse(request.time));
}

/** Waits for two more polls of `month`: the second starts once the first has ended. */
async function twoMorePolls(month) {
	const since = await statusPollsOf(sandbox, COMPANY, month);
	await waitForStatusPolls(sandbox, {
		companyId: COMPANY,
		month,
		since,
		count: 2,
		schedule: SCHEDULE,
	});
	await waitUntil(
		'every execution to finish',
		async () => (await finishedExecutions()) !== undefined,
	);
}

beforeAll(async () => {
	await ensureN8nInstalled();
	sandbox = await startTestSandbox();
	// Last month completes during the test, after the activation's poll took its baseline.
	await setPayrollStatus(sandbox, {
		companyId: COMPANY,
		month: LAST_MONTH,
		status: 'not_completed',
	});
	instance = await createInstance({ prefix: 'n8n-e2e-webhook-example-' });
	const apiKey = (companyId) =>
		sandbox.issueToken({ companyId, scopes: ALL_SCOPES, kind: 'apiKey' }).access_token;
	signingSecret = newDemoWebhookSecret();
	await instance.cli.importCredentials(
		exampleCredentials(sandbox, apiKey, { webhookSigningSecret: signingSecret }),
	);
	await importExamples(instance.cli, {
		importedIdsFile: path.join(instance.userFolder, 'imported-examples.json'),
		only: [DEMO_WEBHOOK.workflowId],
		pollTimes: SCHEDULE.pollTimes,
	});
	await instance.start();
	const rest = new N8nRest(instance.url);
	await rest.ensureOwner();
	api = new N8nPublicApi(instance.url, await rest.createApiKey('e2e-webhook-example'));
	await registerEndpoint(sandbox, { url: demoWebhookUrl(instance.url), secret: signingSecret });
	await waitForStatusPolls(sandbox, {
		companyId: COMPANY,
		month: THIS_MONTH,
		since: 0,
		count: 1,
		schedule: SCHEDULE,
	});
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.close();
});

test('the example is published as imported: both triggers → the download → the store, nothing else', async () => {
	const workflow = await api.get(`/workflows/${DEMO_WEBHOOK.workflowId}`);
	expect(workflow.active).toBe(true);
	expect(workflow.nodes.map((node) => node.type).sort()).toEqual([
		'n8n-nodes-base.readWriteFile',
		'n8n-nodes-partner-payroll.partnerPayroll',
		'n8n-nodes-partner-payroll.partnerPayrollTrigger',
		'n8n-nodes-partner-payroll.partnerPayrollWebhookTrigger',
	]);
	expect(await storedRuns()).toEqual([]);
});

test('this month, delivered at once and found again by the polls: stored once; a re-send of the month (new message id) starts nothing', async () => {
	const completedAt = Date.now();
	await setPayrollStatus(sandbox, { companyId: COMPANY, month: THIS_MONTH, status: 'completed' });
	await waitUntil('the stored file of this month', async () => (await storedRuns()).length === 1);
	await twoMorePolls(THIS_MONTH);
	const resent = await sandboxControl(sandbox, 'POST', '/webhooks/payroll-run', {
		companyId: COMPANY,
		month: THIS_MONTH,
	});
	await twoMorePolls(THIS_MONTH);

	// The webhook took the first delivery and the re-send (answered 2xx, never retried); the polls saw the
	// month completed after it.
	const messages = await sandboxControl(sandbox, 'GET', '/webhooks/messages');
	expect(
		messages.map((message) =>
			message.deliveries.map(({ state, attempts }) => ({ state, attempts })),
		),
	).toEqual([[{ state: 'delivered', attempts: 1 }], [{ state: 'delivered', attempts: 1 }]]);
	expect(resent.deliveries).toEqual([expect.objectContaining({ state: 'delivered', attempts: 1 })]);
	expect(
		(await pollsOf(THIS_MONTH)).filter((time) => time > completedAt).length,
	).toBeGreaterThanOrEqual(4);
	// One execution stored the month: the webhook's, unless a poll happened to come first.
	const runs = await storedRuns();
	expect(runs.map(({ months, status }) => ({ months, status }))).toEqual([
		{ months: [THIS_MONTH], status: 'success' },
	]);
	expect([NODES.webhook, NODES.poll]).toContain(runs[0].trigger);
});

test('last month, its delivery lost: the poll stores it, and the late delivery of the same run starts nothing', async () => {
	// No endpoint while the month completes: the webhook never hears of it.
	await sandboxControl(sandbox, 'DELETE', '/webhooks');
	await setPayrollStatus(sandbox, { companyId: COMPANY, month: LAST_MONTH, status: 'completed' });
	await waitUntil('the stored file of last month', async () => (await storedRuns()).length === 2);
	await registerEndpoint(sandbox, { url: demoWebhookUrl(instance.url), secret: signingSecret });
	const late = await sandboxControl(sandbox, 'POST', '/webhooks/payroll-run', {
		companyId: COMPANY,
		month: LAST_MONTH,
	});
	expect(late.deliveries).toEqual([expect.objectContaining({ state: 'delivered', attempts: 1 })]);
	await twoMorePolls(LAST_MONTH);

	const runs = await storedRuns();
	expect(runs).toHaveLength(2);
	expect(runs[1]).toEqual({ trigger: NODES.poll, months: [LAST_MONTH], status: 'success' });
	const folder = filesFolder(instance.userFolder);
	const stored = [THIS_MONTH, LAST_MONTH].map((month) => `payment-file-${COMPANY}-${month}`);
	expect(fs.readdirSync(folder).sort()).toEqual([...stored].sort());
	for (const month of [THIS_MONTH, LAST_MONTH]) {
		expect(sha256(fs.readFileSync(path.join(folder, `payment-file-${COMPANY}-${month}`)))).toBe(
			sha256(sandbox.seed.paymentFile(COMPANY, month)),
		);
	}
});
