'use strict';
// Billing declarations across executions in queue mode (issue 38): the main and two workers on Postgres,
// every execution run by a worker, the record of declarations in n8n's Data Tables reached through the
// main's public API. The cases: test/support/billing-declarations.js.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {
	n8nRuntime,
	ensureN8nInstalled,
	ensureDebianPackages,
	createQueueCluster,
	packPackage,
	startTestSandbox,
	connectBillingRecord,
	N8nPublicApi,
} = require('../../lib');
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
	await ensureN8nInstalled(RUNTIME);
	ensureDebianPackages(['redis-server', 'postgresql']);
	sandbox = await startTestSandbox();
	dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-queue-declarations-'));
	fs.chmodSync(dataDir, 0o755); // Postgres runs as another user when we are root
	const tarball = packPackage(path.join(dataDir, 'package-tarball'));
	// One execution at a time per worker: two executions started together run on the two workers.
	cluster = await createQueueCluster({ dataDir, tarball, runtime: RUNTIME, workers: 2, concurrency: 1 });
	const { credentials, workflow, n8nApi } = declarationsSetup(sandbox);
	await cluster.cli.importCredentials(credentials);
	await cluster.cli.importWorkflows([workflow]);
	await cluster.cli.publishWorkflow(workflow.id);
	rest = await connectBillingRecord({ url: cluster.url, start: cluster.startAll }, n8nApi);
	api = new N8nPublicApi(cluster.url, await rest.createApiKey('e2e-queue-declarations-executions'), {
		executionIds: cluster.executionIds,
	});
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await cluster?.stop();
	await sandbox?.close();
	if (dataDir && !process.env.E2E_KEEP_USER_FOLDERS) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('billing declarations across executions, in queue mode', () => {
	describeDeclarationsAcrossExecutions(() => ({ sandbox, url: cluster.url, rest, api }));

	test('the executions ran on both workers, each once', () => {
		const ranBy = Object.values(cluster.executionsByWorker());
		expect(ranBy.length).toBeGreaterThan(0);
		for (const workers of ranBy) expect(workers).toHaveLength(1);
		expect(new Set(ranBy.flat())).toEqual(new Set(cluster.workers.map((worker) => worker.name)));
	});
});
