'use strict';
// Billing declarations across executions in queue mode (issue 38): the main and two workers on Postgres,
// every execution run by a worker, the record of declarations in n8n's Data Tables reached through the
// main's public API. The cases: test/support/billing-declarations.js.
const {
	n8nRuntime,
	startTestSandbox,
	connectBillingRecord,
	N8nPublicApi,
} = require('../../lib');
const { packedQueueCluster, prepareQueueLab, stopQueueLab } = require('../support/queue-lab');
const { declarationsSetup, describeDeclarationsAcrossExecutions } = require('../support/billing-declarations');

const RUNTIME = n8nRuntime();
const SETUP_TIMEOUT_MS = 25 * 60_000; // includes installing n8n, Redis and Postgres when missing
jest.setTimeout(240_000);

let sandbox;
let cluster;
let rest;
let api;
let dataDir;

beforeAll(async () => {
	dataDir = await prepareQueueLab(RUNTIME, 'declarations');
	sandbox = await startTestSandbox();
	// One execution at a time per worker: two executions started together run on the two workers.
	cluster = await packedQueueCluster(dataDir, { runtime: RUNTIME, workers: 2, concurrency: 1 });
	const { credentials, workflow, n8nApi } = declarationsSetup(sandbox);
	await cluster.cli.importCredentials(credentials);
	await cluster.cli.importWorkflows([workflow]);
	await cluster.cli.publishWorkflow(workflow.id);
	rest = await connectBillingRecord({ url: cluster.url, start: cluster.startAll }, n8nApi);
	api = new N8nPublicApi(cluster.url, await rest.createApiKey('e2e-queue-declarations-executions'), {
		executionIds: cluster.executionIds,
	});
}, SETUP_TIMEOUT_MS);

afterAll(async () => await stopQueueLab({ cluster, sandbox, dataDir }));

describe('billing declarations across executions, in queue mode', () => {
	describeDeclarationsAcrossExecutions(() => ({ sandbox, url: cluster.url, rest, api }));

	test('the executions ran on both workers, each once', () => {
		const ranBy = Object.values(cluster.executionsByWorker());
		expect(ranBy.length).toBeGreaterThan(0);
		for (const workers of ranBy) expect(workers).toHaveLength(1);
		expect(new Set(ranBy.flat())).toEqual(new Set(cluster.workers.map((worker) => worker.name)));
	});
});
