'use strict';
// One measurement of each kind against a running bench n8n and sandbox.
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { spawn } = require('node:child_process');
const { measureRssRise } = require('../lib/rss');
const { subjectRun } = require('./n8n');
const { SUBJECT, COMPANY, MONTH } = require('./workflows');
const { oracleItems, compareItems } = require('./csv-oracle');

/** Runs a webhook workflow once: n8n's time for the measured node, the wall time, its items. */
async function runSubject(bench, workflow) {
	const before = await bench.newestExecutionId(workflow.id);
	let wallMs = null;
	try {
		wallMs = await bench.callWebhook(workflow.webhookPath);
	} catch (error) {
		// On a loaded machine n8n may drop the webhook's connection of a long run (its database
		// health check times out while the event loop is busy); the execution still tells the time.
		if (!/fetch failed|other side closed|terminated/i.test(String(error?.message) + String(error?.cause?.message))) throw error;
		console.log(`   (the webhook connection of ${workflow.id} was closed early: ${error.cause?.message ?? error.message}; reading the execution)`);
	}
	const execution = await bench.lastExecution(workflow.id, before);
	const { executionTime, items } = subjectRun(execution, SUBJECT);
	return { nodeMs: executionTime, wallMs, items, execution };
}

/** The API requests a run caused, and on how many TCP connections they came. */
async function requestsOf(sandbox) {
	const requests = (await sandbox.requests()).filter((request) => request.path.startsWith('/api/v1/') || request.path.startsWith('/oauth/'));
	return { count: requests.length, connections: new Set(requests.map((request) => request.connection)).size };
}

async function itemsRun(bench, sandbox, workflow, expectedItems) {
	await sandbox.clearRequests();
	const run = await runSubject(bench, workflow);
	if (run.items.length !== expectedItems) throw new Error(`${workflow.id}: ${run.items.length} items instead of ${expectedItems}`);
	const bad = run.items.find((item) => item.json.status !== 'completed');
	if (bad) throw new Error(`${workflow.id}: unexpected item ${JSON.stringify(bad.json)}`);
	const requests = await requestsOf(sandbox);
	return { nodeMs: run.nodeMs, wallMs: run.wallMs, requests: requests.count, connections: requests.connections };
}

/** The distinct error messages of failed items (On Error → Continue), at most `max`, for the log. */
function errorsOf(items, max = 3) {
	const messages = new Set();
	for (const item of items) if (item.json.error !== undefined && messages.size < max) messages.add(String(item.json.error?.message ?? item.json.error).slice(0, 200));
	return [...messages];
}

/** A run at the service's rate limit: node time, items that failed, and the 429s the service sent. */
async function limitedRun(bench, sandbox, workflow, expectedItems) {
	await sandbox.clearRequests();
	const run = await runSubject(bench, workflow);
	if (run.items.length !== expectedItems) throw new Error(`${workflow.id}: ${run.items.length} items instead of ${expectedItems}`);
	const refused = (await sandbox.requests()).filter((request) => request.status === 429).length;
	return { nodeMs: run.nodeMs, executionId: run.execution.id, failed: run.items.filter((item) => item.json.error !== undefined).length, refused, errors: errorsOf(run.items) };
}

/**
 * A run at the rate limit whose items carry files (Download Payment File, a listing with Download Files):
 * node time, failed items, items with a file (each checked by `check(bytes)`), the API requests served
 * (the limit's floor counts them) and the 429s sent.
 */
async function limitedFilesRun(bench, sandbox, workflow, { expectedFiles, check }) {
	await sandbox.clearRequests();
	const run = await runSubject(bench, workflow);
	const api = (await sandbox.requests()).filter((request) => request.path.startsWith('/api/v1/'));
	const refused = api.filter((request) => request.status === 429).length;
	const failed = run.items.filter((item) => item.json.error !== undefined).length;
	const withFile = run.items.filter((item) => item.json.error === undefined && item.binary?.data);
	for (const item of withFile) {
		const problem = check(bench.binaryBytes(item.binary.data));
		if (problem) throw new Error(`${workflow.id}: ${problem}`);
	}
	return { nodeMs: run.nodeMs, items: run.items.length, failed, files: withFile.length, expectedFiles, served: api.length - refused, refused, errors: errorsOf(run.items) };
}

/** Executions of these workflows started at the same moment: the time until all ended. */
async function concurrentRuns(bench, sandbox, workflows, expectedItems) {
	await sandbox.clearRequests();
	const started = performance.now();
	const runs = await Promise.all(workflows.map((workflow) => runSubject(bench, workflow)));
	const totalMs = performance.now() - started;
	const refused = (await sandbox.requests()).filter((request) => request.status === 429).length;
	for (const run of runs) if (run.items.length !== expectedItems) throw new Error(`${run.items.length} items instead of ${expectedItems}`);
	return {
		totalMs,
		nodeMs: runs.map((run) => run.nodeMs),
		executionIds: runs.map((run) => run.execution.id),
		failed: runs.map((run) => run.items.filter((item) => item.json.error !== undefined).length),
		refused,
		errors: errorsOf(runs.flatMap((run) => run.items)),
	};
}

/**
 * The same GETs one after the other from the bench process, each on a connection of its own: a new
 * `http.Agent` per request, as n8n's request helpers build one for every request a node sends (n8n-core
 * `setAxiosAgents` → `createHttpProxyAgent` in 2.8; `@n8n/backend-network` `setAxiosAgents` →
 * `buildNodeAgents` in 2.40), the floor for any n8n node. With `keepAlive`, one kept-alive agent for all:
 * what a node could do with its own agent, which n8n does not let a community node have. The time, and
 * the requests and TCP connections the sandbox counted.
 */
async function requestLoop(sandbox, count, { keepAlive }) {
	const url = `${sandbox.apiBaseUrl}/companies/${COMPANY}/payroll-status?date=${MONTH}`;
	const headers = { authorization: `Bearer ${sandbox.tokenOf(COMPANY)}` };
	const keptAlive = keepAlive ? new http.Agent({ keepAlive: true, maxSockets: 1 }) : null;
	const get = () =>
		new Promise((resolve, reject) => {
			const request = http.get(url, { headers, agent: keptAlive ?? new http.Agent() }, (response) => {
				const chunks = [];
				response.on('data', (chunk) => chunks.push(chunk));
				response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
				response.on('error', reject);
			});
			request.on('error', reject);
		});
	await sandbox.clearRequests();
	const started = performance.now();
	for (let index = 0; index < count; index += 1) await get();
	const ms = performance.now() - started;
	keptAlive?.destroy();
	const requests = await requestsOf(sandbox);
	return { ms, requests: requests.count, connections: requests.connections };
}

/** One file download, with the RSS rise of n8n's process group while it runs. */
async function downloadRun(bench, workflow, expectedBytes) {
	const measured = await measureRssRise(bench.pid, () => runSubject(bench, workflow));
	const { nodeMs, wallMs, items } = measured.result;
	const binary = items[0]?.binary?.data;
	if (!binary) throw new Error(`${workflow.id}: no file on the output`);
	const bytes = bench.binaryBytes(binary);
	if (bytes.length !== expectedBytes) throw new Error(`${workflow.id}: ${bytes.length} bytes instead of ${expectedBytes}`);
	return { nodeMs, wallMs, rise: measured.rise, baseline: measured.baseline, peak: measured.peak, processes: measured.processes, samples: measured.samples, sha256: bench.sha256(bytes) };
}

/**
 * The floor of a streamed download: a fresh plain Node.js process (n8n's own Node.js, `pathEnv`)
 * pipes the same answer into a file; its RSS rise is measured as n8n's is (own process group, one
 * warm-up request first). Neither node can stream below this.
 */
async function streamFloorRun(sandbox, pathEnv, apiPath, expectedBytes) {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-stream-floor-'));
	const warmUp = `${sandbox.apiBaseUrl}/companies/${COMPANY}/payroll-status?date=${MONTH}`;
	const args = [path.join(__dirname, 'stream-floor.js'), `${sandbox.apiBaseUrl}${apiPath}`, warmUp, sandbox.tokenOf(COMPANY), path.join(folder, 'file')];
	const child = spawn('node', args, { env: { ...process.env, ...pathEnv }, detached: true, stdio: ['pipe', 'pipe', 'inherit'] });
	const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
	const nextLine = async () => {
		const { value, done } = await lines.next();
		if (done) throw new Error('the stream floor process ended early');
		return value;
	};
	try {
		if ((await nextLine()) !== 'ready') throw new Error('the stream floor process did not get ready');
		const measured = await measureRssRise(child.pid, async () => {
			child.stdin.write('go\n');
			return Number((await nextLine()).replace('done ', ''));
		});
		if (measured.result !== expectedBytes) throw new Error(`stream floor: ${measured.result} bytes instead of ${expectedBytes}`);
		return { rise: measured.rise, baseline: measured.baseline, peak: measured.peak };
	} finally {
		child.kill();
		fs.rmSync(folder, { recursive: true, force: true });
	}
}

/** Parse Lines in n8n, compared item by item with csv-parse on the same bytes. */
async function parseLinesRun(bench, workflow, oracle) {
	const run = await runSubject(bench, workflow);
	const comparison = compareItems(run.items, oracle.items);
	return { nodeMs: run.nodeMs, wallMs: run.wallMs, lines: run.items.length, ...comparison };
}

function oracleRun(csvBytes) {
	const { items, parseMs, totalMs } = oracleItems(csvBytes);
	return { items, parseMs, totalMs };
}

module.exports = { limitedRun, limitedFilesRun, concurrentRuns, runSubject, itemsRun, requestLoop, downloadRun, streamFloorRun, parseLinesRun, oracleRun };
