'use strict';
// A real n8n for the benchmark, through the real-n8n library's public functions: a throwaway user folder
// with the package installed from `npm pack`, credentials and workflows imported, `n8n start`, the
// owner account and a public API key. Restartable, so a measurement can start from a fresh process.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const WEBHOOK_READY_TIMEOUT_MS = 60_000;
const EXECUTION_TIMEOUT_MS = 180_000;

/** The real-n8n library, with the n8n version chosen before it is loaded (it reads E2E_N8N when it has a choice). */
function loadRealN8nLibrary(n8nVersion) {
	if (n8nVersion) process.env.E2E_N8N = n8nVersion;
	return require('../lib');
}

/** The n8n version that runs (the matrix entry the library selected), and its HTTP Request node's version. */
function runtimeOf(lib) {
	const { installDir } = lib.n8nRuntime();
	const readVersion = (name) =>
		JSON.parse(fs.readFileSync(path.join(installDir, 'node_modules', name, 'package.json'), 'utf8')).version;
	const httpRequestSource = fs.readFileSync(
		path.join(installDir, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js'),
		'utf8',
	);
	return {
		installDir,
		n8nVersion: readVersion('n8n'),
		// The version the editor gives a new HTTP Request node.
		httpRequestVersion: Number(/defaultVersion:\s*([\d.]+)/.exec(httpRequestSource)[1]),
	};
}

/** The Node.js version of a running process, asked of its own executable. */
function nodeVersionOf(pid) {
	return execFileSync(fs.readlinkSync(`/proc/${pid}/exe`), ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
}

/**
 * fetch, sent again once when a kept-alive connection turns out closed right away: the server closes
 * idle connections, and this process may not notice in time while it computes (the csv-parse oracle).
 */
async function fetchFresh(url, init) {
	const started = Date.now();
	try {
		return await fetch(url, init);
	} catch (error) {
		const stale = /other side closed|ECONNRESET|socket hang up/i.test(`${error?.cause?.message} ${error?.cause?.code}`);
		if (!stale || Date.now() - started > 1_000) throw error;
		return await fetch(url, init);
	}
}

/**
 * What the bench asks of a running n8n, through its URL: the public API (once `apiKey` is set), webhook
 * calls and the executions they caused. Shared by the single instance and the queue-mode cluster.
 */
function benchClient(url) {
	let apiKey = null;

	async function publicApi(method, apiPath, body, attempt = 1) {
		const response = await fetchFresh(`${url}/api/v1${apiPath}`, {
			method,
			headers: { 'X-N8N-API-KEY': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		// n8n answers "Database is not ready" for a moment while SQLite is busy.
		if (response.status === 503 && attempt < 20) {
			await new Promise((resolve) => setTimeout(resolve, 500));
			return await publicApi(method, apiPath, body, attempt + 1);
		}
		if (!response.ok) throw new Error(`${method} /api/v1${apiPath} answered ${response.status}: ${text.slice(0, 300)}`);
		return text ? JSON.parse(text) : null;
	}

	return {
		get hasApiKey() {
			return apiKey !== null;
		},
		/** The owner account, and a public API key the first time. */
		async signIn(lib, label = 'bench') {
			const rest = new lib.N8nRest(url);
			await rest.ensureOwner();
			if (!apiKey) {
				const scopes = await rest.request('GET', '/rest/api-keys/scopes');
				apiKey = (await rest.request('POST', '/rest/api-keys', { label, scopes, expiresAt: null })).rawApiKey;
			}
		},
		/** Calls a workflow's webhook (answered when the workflow ends); resolves the wall time in ms. */
		async callWebhook(webhookPath) {
			// n8n serves its API before it has registered the webhooks of published workflows.
			const deadline = Date.now() + WEBHOOK_READY_TIMEOUT_MS;
			for (;;) {
				const started = performance.now();
				const response = await fetchFresh(`${url}/webhook/${webhookPath}`, { signal: AbortSignal.timeout(300_000) });
				const text = await response.text();
				const wallMs = performance.now() - started;
				if (response.ok) return wallMs;
				if (!(response.status === 404 && /not registered/.test(text) && Date.now() < deadline)) {
					throw new Error(`webhook ${webhookPath} answered ${response.status}: ${text.slice(0, 300)}`);
				}
				await new Promise((resolve) => setTimeout(resolve, 500));
			}
		},
		/** The id of the newest execution of a workflow (0 when none). */
		async newestExecutionId(workflowId) {
			const { data } = await publicApi('GET', `/executions?workflowId=${workflowId}&limit=1`);
			return Number(data[0]?.id ?? 0);
		},
		/** The newest execution of a workflow newer than `afterId`, once finished, with its run data. */
		async lastExecution(workflowId, afterId = 0) {
			const deadline = Date.now() + EXECUTION_TIMEOUT_MS;
			while (Date.now() < deadline) {
				const { data } = await publicApi('GET', `/executions?workflowId=${workflowId}&includeData=true&limit=1`);
				if (data[0]?.stoppedAt && Number(data[0].id) > afterId) return data[0];
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
			throw new Error(`no new finished execution of ${workflowId}`);
		},
		publicApi,
	};
}

/**
 * `fixturePackages`: folders of community packages used only by the bench (bench/fixtures/), packed and
 * installed next to the package, the way the package is.
 */
async function createBenchN8n(lib, { credentials, workflows, log, extraEnv = {}, fixturePackages = [] }) {
	const instance = await lib.createInstance({ prefix: 'n8n-bench-', extraEnv });
	log(`n8n user folder ${instance.userFolder}`);
	for (const folder of fixturePackages) {
		const { name } = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
		lib.installPackageInto(instance.userFolder, lib.packPackage(path.join(instance.userFolder, 'fixture-tarballs'), folder), name);
	}
	await instance.cli.importCredentials(credentials);
	await instance.cli.importWorkflows(workflows.map(({ webhookPath: _path, ...workflow }) => workflow));
	const client = benchClient(instance.url);
	let server = null;
	let activated = false;

	return {
		...client,
		instance,
		get pid() {
			return server.pid;
		},
		async start() {
			server = await instance.start();
			await client.signIn(lib);
			// Published through the public API once (no CLI run, no restart); they stay published across restarts.
			if (!activated) {
				for (const workflow of workflows) await client.publicApi('POST', `/workflows/${workflow.id}/activate`);
				activated = true;
			}
		},
		async restart() {
			await instance.stop();
			await this.start();
		},
		/** The bytes of a binary property of an output item, wherever n8n stored them. */
		binaryBytes: (binary) => lib.binaryBytes(instance.userFolder, binary),
		sha256: (bytes) => lib.sha256(bytes),
		stop: () => instance.stop(),
		dispose: () => instance.dispose(),
	};
}

/**
 * n8n in queue mode for the bench (real-n8n/lib/queue.js): Redis, Postgres, a main instance and
 * `workers` workers, each running one execution at a time (`--concurrency=1`), so that two executions
 * started together run on two workers, two processes with a pace of their own.
 */
async function createBenchQueue(lib, { credentials, workflows, log, workers = 2 }) {
	const runtime = lib.n8nRuntime();
	await lib.ensureDebianPackages(['redis-server', 'postgresql'], { log });
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-queue-'));
	fs.chmodSync(dataDir, 0o755); // Postgres runs as another user when we are root
	log(`queue-mode data folder ${dataDir}`);
	const tarball = lib.packPackage(path.join(dataDir, 'package-tarball'));
	const cluster = await lib.createQueueCluster({ dataDir, tarball, runtime, workers, concurrency: 1 });
	try {
		await cluster.cli.importCredentials(credentials);
		await cluster.cli.importWorkflows(workflows.map(({ webhookPath: _path, ...workflow }) => workflow));
		for (const workflow of workflows) await cluster.cli.publishWorkflow(workflow.id);
		await cluster.startAll();
	} catch (error) {
		await cluster.stop();
		throw error;
	}
	const client = benchClient(cluster.url);
	await client.signIn(lib);
	return {
		...client,
		cluster,
		get pid() {
			return cluster.main.child.pid;
		},
		/** Which worker ran an execution (from the workers' logs). */
		workerOf: (executionId) => (cluster.executionsByWorker()[executionId] ?? []).join('+') || 'unknown',
		async dispose() {
			await cluster.stop();
			if (!process.env.E2E_KEEP_USER_FOLDERS) fs.rmSync(dataDir, { recursive: true, force: true });
		},
	};
}

/** The measured node's first run: its time as n8n recorded it, its items, or the error. */
function subjectRun(execution, nodeName) {
	const run = execution.data?.resultData?.runData?.[nodeName]?.[0];
	const error = execution.data?.resultData?.error ?? run?.error;
	if (!run || error) throw new Error(`${nodeName} failed: ${error?.message ?? 'it did not run'} ${error?.description ?? ''}`);
	return { executionTime: run.executionTime, items: run.data.main[0] };
}

module.exports = { loadRealN8nLibrary, runtimeOf, nodeVersionOf, createBenchN8n, createBenchQueue, subjectRun };
