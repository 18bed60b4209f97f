'use strict';
// The webhook trigger in n8n's queue mode with deliveries spread over processes, as a load balancer in
// front of n8n would spread them: Redis, Postgres, the main instance, one worker, and two `n8n webhook`
// processes; webhook-2 lacks the package, as a forgotten install would leave it. Shows that each event
// runs once, on the worker, when its deliveries and their copies reach the main and webhook-1 one after
// the other (the record is shared through the static data n8n saves), and that deliveries reaching the
// process without the package fail visibly (an error status, so Svix retries; no execution).
const fs = require('node:fs');
const {
	n8nRuntime,
	startTestSandbox,
	sandboxControl,
	N8nRest,
	N8nPublicApi,
	newSigningSecret,
	webhookSecretCredential,
	webhookTriggerWorkflow,
	productionPath,
	registerEndpoint,
	webhookTriggerItems,
} = require('../../lib');
const { packedQueueCluster, prepareQueueLab, stopQueueLab } = require('../support/queue-lab');

const RUNTIME = n8nRuntime();
const SETUP_TIMEOUT_MS = 25 * 60_000; // includes installing n8n, Redis and Postgres when missing
jest.setTimeout(240_000);

const SECRET = newSigningSecret();
const CREDENTIAL = {
	id: 'ppQueueWebhook01',
	name: 'Webhook signing secret',
	signingSecret: SECRET,
};
const WORKFLOW = {
	id: 'wfQueueWebhook01',
	name: 'Queue: webhook trigger',
	webhookId: 'e2e-queue-webhook',
	credential: CREDENTIAL,
};
const MONTHS = ['202601', '202602', '202603', '202604', '202605', '202606'];

let sandbox;
let cluster;
let api;
let dataDir;
/** Endpoint ids in the sandbox: one per process, all the same production path and secret. */
const endpoints = {};

beforeAll(async () => {
	dataDir = await prepareQueueLab(RUNTIME, 'webhook');
	sandbox = await startTestSandbox();
	cluster = await packedQueueCluster(dataDir, {
		runtime: RUNTIME,
		workers: 1,
		webhookProcesses: 2,
		packageOn: (name) => name !== 'webhook-2',
	});
	await cluster.cli.importCredentials([webhookSecretCredential(CREDENTIAL)]);
	await cluster.cli.importWorkflows([webhookTriggerWorkflow(WORKFLOW)]);
	await cluster.cli.publishWorkflow(WORKFLOW.id);
	await cluster.startAll();
	const rest = new N8nRest(cluster.url);
	await rest.ensureOwner();
	api = new N8nPublicApi(cluster.url, await rest.createApiKey('e2e-queue-webhook'), {
		executionIds: cluster.executionIds,
	});
	const [webhook1, webhook2] = cluster.webhookProcesses;
	for (const [name, baseUrl] of [
		['main', cluster.url],
		['webhook-1', webhook1.url],
		['webhook-2', webhook2.url],
	]) {
		endpoints[name] = (
			await registerEndpoint(sandbox, {
				url: `${baseUrl}${productionPath(WORKFLOW.webhookId)}`,
				secret: SECRET,
			})
		).id;
	}
	// One attempt per message: a failure shows in the attempt, not hidden by a later retry.
	await sandboxControl(sandbox, 'POST', '/webhooks/settings', { retryScheduleMs: [] });
}, SETUP_TIMEOUT_MS);

afterAll(async () => await stopQueueLab({ cluster, sandbox, dataDir }));

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const payrollRun = (month) => ({
	type: 'payroll.run',
	data: {
		companyId: 'FR1001',
		effectiveDate: `${month.slice(0, 4)}-${month.slice(4)}-27T18:00:00+00:00`,
		payrollMonth: month,
	},
});
const send = async (endpoint, body) => {
	const message = await sandboxControl(sandbox, 'POST', '/webhooks/send', {
		endpointId: endpoints[endpoint],
		...body,
	});
	const attempts = (await sandboxControl(sandbox, 'GET', '/webhooks/deliveries')).filter(
		(attempt) => attempt.messageId === message.id,
	);
	return attempts.at(-1).status;
};
async function finishedExecutions(count) {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const found = (await api.executions(WORKFLOW.id)).filter((execution) => execution.stoppedAt);
		if (found.length >= count || Date.now() > deadline) return found;
		await pause(1_000);
	}
}

it('deliveries spread over the main and webhook-1, with copies on the other process: each event runs once, on the worker', async () => {
	const statuses = [];
	for (const [index, month] of MONTHS.entries()) {
		const [first, other] = index % 2 ? ['webhook-1', 'main'] : ['main', 'webhook-1'];
		const id = `msg_queue_${month}`;
		statuses.push(await send(first, { id, ...payrollRun(month) }));
		// A retry of the same message, and a re-send with a new message id, reaching the other process.
		statuses.push(await send(other, { id, ...payrollRun(month) }));
		statuses.push(await send(other, payrollRun(month)));
	}
	expect(statuses.every((status) => status === 200)).toBe(true);
	const executions = await finishedExecutions(MONTHS.length);
	await pause(5_000);
	const all = (await api.executions(WORKFLOW.id)).filter((execution) => execution.stoppedAt);
	// One execution per month, from the first delivery (its message id): copies on the other process start none.
	const fired = all.flatMap(webhookTriggerItems).map((item) => `${item.month} ${item.messageId}`);
	expect(fired.sort()).toEqual(MONTHS.map((month) => `${month} msg_queue_${month}`));
	// Every execution ran on the worker, once.
	const ranBy = cluster.executionsByWorker();
	for (const execution of executions) expect(ranBy[execution.id]).toEqual(['worker-1']);
	// The webhook process received its share.
	expect(fs.readFileSync(cluster.webhookProcesses[0].logFile, 'utf8')).not.toMatch(
		/Unrecognized node type/i,
	);
});

it('a webhook process without the package fails the delivery visibly: an error status, no execution', async () => {
	const before = (await api.executions(WORKFLOW.id)).length;
	const status = await send('webhook-2', payrollRun('202607'));
	expect(status).toBeGreaterThanOrEqual(400);
	await pause(5_000);
	expect((await api.executions(WORKFLOW.id)).length).toBe(before);
	// The same event through a process with the package runs.
	expect(await send('webhook-1', payrollRun('202607'))).toBe(200);
	expect(await finishedExecutions(before + 1)).toHaveLength(before + 1);
});
