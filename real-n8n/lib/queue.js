'use strict';
// n8n's queue mode (scale-out) on one machine: Redis and Postgres (services.js), one main instance
// (`n8n start`: editor, API, webhooks, triggers, the queue's producer) and workers (`n8n worker`: they
// run the executions). Every instance has its own user folder with the package installed, as on
// separate machines, and the same encryption key and database. Binary data goes to the database
// (N8N_DEFAULT_BINARY_DATA_MODE=database): workers do not share a disk with the main.
const fs = require('node:fs');
const path = require('node:path');
const { n8nRuntime } = require('./runtimes');
const { n8nEnv } = require('./env');
const { N8nCli } = require('./cli');
const { startN8n } = require('./server');
const { installPackageInto } = require('./community-package');
const { spawnToFile, stopProcessGroup } = require('./process');
const { freePort } = require('./ports');
const { startRedis, startPostgres } = require('./services');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const WORKER_READY_TIMEOUT_MS = 120_000;

/** The settings that put an instance in queue mode on these Redis and Postgres. */
function queueModeEnv({ redis, postgres, binaryDataMode = 'database' }) {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: postgres.password,
		N8N_DEFAULT_BINARY_DATA_MODE: binaryDataMode,
		// Runs from the editor ("Execute workflow") go to the workers too, not only production runs.
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
	};
}

async function answers(url) {
	try {
		return (await fetch(url, { signal: AbortSignal.timeout(3_000) })).ok;
	} catch {
		return false;
	}
}

/**
 * Redis, Postgres and the user folders of a queue-mode n8n in `dataDir` (kept: a second start reuses the
 * database). Nothing n8n runs yet: import and publish with `cluster.cli` first, then `startAll()`.
 * - `tarball`: the package, installed into the main's and every worker's user folder
 *   (`packageOn(name)` false leaves it out of that instance, to prove that a test notices).
 * - `ports`: fixed ports for `npm run start:queue` ({n8n, mainBroker, cli, redis, postgres, workers:
 *   [{broker, health}]}); free ones otherwise.
 */
async function createQueueCluster({
	dataDir,
	tarball,
	workers = 2,
	runtime = n8nRuntime('newest'),
	ports = {},
	binaryDataMode = 'database',
	packageOn = () => true,
	concurrency = 10,
	extraEnv = {},
	webhookProcesses = 0,
}) {
	const port = async (fixed) => fixed ?? (await freePort());
	const redis = await startRedis({ dir: path.join(dataDir, 'redis'), port: await port(ports.redis) });
	let postgres;
	try {
		postgres = await startPostgres({ dir: path.join(dataDir, 'postgres'), port: await port(ports.postgres) });
	} catch (error) {
		await redis.stop();
		throw error;
	}
	const shared = { ...queueModeEnv({ redis, postgres, binaryDataMode }), ...extraEnv };

	const instanceFolder = (name) => {
		const folder = path.join(dataDir, name);
		fs.mkdirSync(folder, { recursive: true });
		if (packageOn(name)) installPackageInto(folder, tarball);
		else fs.rmSync(path.join(folder, '.n8n', 'nodes'), { recursive: true, force: true });
		return folder;
	};

	const mainFolder = instanceFolder('main');
	const mainPort = await port(ports.n8n);
	const mainEnv = n8nEnv({ userFolder: mainFolder, port: mainPort, brokerPort: await port(ports.mainBroker), runtime, extra: shared });
	const cli = new N8nCli({ ...mainEnv, N8N_RUNNERS_BROKER_PORT: String(await port(ports.cli)) }, runtime);

	const workerSpecs = [];
	for (let index = 0; index < workers; index += 1) {
		const name = `worker-${index + 1}`;
		const fixed = ports.workers?.[index] ?? {};
		const healthPort = await port(fixed.health);
		const folder = instanceFolder(name);
		const env = n8nEnv({
			userFolder: folder,
			port: healthPort,
			brokerPort: await port(fixed.broker),
			runtime,
			extra: {
				...shared,
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(healthPort),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			},
		});
		workerSpecs.push({ name, folder, env, healthPort, logFile: path.join(folder, 'n8n-worker.log'), child: null });
	}

	// `n8n webhook` processes: they serve production webhook URLs only (behind a load balancer in a real
	// set-up), run each webhook node's webhook() and enqueue the execution for the workers.
	const webhookSpecs = [];
	for (let index = 0; index < webhookProcesses; index += 1) {
		const name = `webhook-${index + 1}`;
		const folder = instanceFolder(name);
		const webhookPort = await freePort();
		const env = n8nEnv({ userFolder: folder, port: webhookPort, brokerPort: await freePort(), runtime, extra: shared });
		webhookSpecs.push({ name, folder, env, url: `http://127.0.0.1:${webhookPort}`, logFile: path.join(folder, 'n8n-webhook.log'), child: null });
	}

	/** Starts n8n with `args` for `spec` and waits until `readinessUrl` answers 2xx. */
	async function startReadyProcess(spec, args, readinessUrl) {
		const child = spawnToFile(runtime.n8nBin, args, { env: spec.env, cwd: spec.folder, logFile: spec.logFile });
		spec.child = child;
		let exited = null;
		child.once('exit', (code, signal) => (exited = { code, signal }));
		const deadline = Date.now() + WORKER_READY_TIMEOUT_MS;
		const tail = () => fs.readFileSync(spec.logFile, 'utf8').split('\n').slice(-30).join('\n');
		while (!(await answers(readinessUrl))) {
			if (exited) throw new Error(`${spec.name} exited early (${JSON.stringify(exited)})\n${tail()}`);
			if (Date.now() > deadline) {
				await stopProcessGroup(child);
				throw new Error(`${spec.name} was not ready within ${WORKER_READY_TIMEOUT_MS} ms\n${tail()}`);
			}
			await sleep(500);
		}
		// Another process answering on this port would look ready too: make sure this one still runs.
		await sleep(1_000);
		if (exited) throw new Error(`${spec.name} exited after its readiness check (${JSON.stringify(exited)})\n${tail()}`);
		return spec;
	}

	let main = null;
	// A start of the main still under way (a restart when a test times out): stopMain() waits for it.
	let mainStarting = null;

	const cluster = {
		runtime,
		dataDir,
		redis,
		postgres,
		cli,
		url: `http://127.0.0.1:${mainPort}`,
		main: { name: 'main', folder: mainFolder, env: mainEnv, logFile: path.join(mainFolder, 'n8n.log') },
		workers: workerSpecs,
		webhookProcesses: webhookSpecs,

		async startMain() {
			mainStarting = startN8n(mainEnv, { runtime, logFile: cluster.main.logFile });
			try {
				main = await mainStarting;
			} finally {
				mainStarting = null;
			}
			cluster.main.child = main.child;
			return main;
		},
		/** `graceMs`: how long the main may take to stop before it is killed. */
		async stopMain(graceMs) {
			await mainStarting?.catch(() => {});
			if (main) await main.stop(graceMs);
			main = null;
		},

		/** `n8n worker`, ready when its health check says the database and Redis are reachable. */
		async startWorker(index) {
			const worker = workerSpecs[index];
			const readiness = `http://127.0.0.1:${worker.healthPort}/healthz/readiness`;
			return startReadyProcess(worker, ['worker', `--concurrency=${concurrency}`], readiness);
		},
		async stopWorker(index) {
			const worker = workerSpecs[index];
			if (worker.child) await stopProcessGroup(worker.child, 30_000);
			worker.child = null;
		},

		/** `n8n webhook`, ready when its readiness check answers (database and Redis reachable). */
		async startWebhookProcess(index) {
			const spec = webhookSpecs[index];
			return startReadyProcess(spec, ['webhook'], `${spec.url}/healthz/readiness`);
		},
		async stopWebhookProcess(index) {
			const spec = webhookSpecs[index];
			if (spec.child) await stopProcessGroup(spec.child, 30_000);
			spec.child = null;
		},

		/** The main first (it runs the migrations on a new database), then workers and webhook processes side by side. */
		async startAll() {
			await cluster.startMain();
			await Promise.all([
				...workerSpecs.map((_, index) => cluster.startWorker(index)),
				...webhookSpecs.map((_, index) => cluster.startWebhookProcess(index)),
			]);
		},

		/** Webhook processes, workers, main, Redis, Postgres: everything this cluster started. */
		async stop() {
			await Promise.all(webhookSpecs.map((_, index) => cluster.stopWebhookProcess(index)));
			await Promise.all(workerSpecs.map((_, index) => cluster.stopWorker(index)));
			await cluster.stopMain();
			await redis.stop();
			await postgres.stop();
		},

		/** Ids of the executions of `workflowId` in n8n's database, newest first. */
		executionIds(workflowId) {
			const rows = postgres.query(
				`SELECT id FROM execution_entity WHERE "workflowId" = '${workflowId.replaceAll("'", "''")}' ORDER BY id DESC`,
			);
			return rows.split('\n').map((row) => row.trim()).filter(Boolean);
		},

		/**
		 * Which instance ran each execution, from the workers' logs ("Worker started execution <id>"):
		 * { [executionId]: [workerName, ...] } (more than one name would mean it ran twice).
		 */
		executionsByWorker() {
			const ranBy = {};
			for (const worker of workerSpecs) {
				if (!fs.existsSync(worker.logFile)) continue;
				const log = fs.readFileSync(worker.logFile, 'utf8');
				for (const match of log.matchAll(/Worker started execution (\d+)\b/g)) {
					(ranBy[match[1]] ??= []).push(worker.name);
				}
			}
			return ranBy;
		},

		/** Files under `.n8n/storage` (filesystem binary data) of the main and every worker. */
		filesystemBinaryFiles() {
			const files = [];
			const walk = (dir) => {
				if (!fs.existsSync(dir)) return;
				for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
					const full = path.join(dir, entry.name);
					if (entry.isDirectory()) walk(full);
					else files.push(full);
				}
			};
			for (const folder of [mainFolder, ...workerSpecs.map((worker) => worker.folder)]) {
				walk(path.join(folder, '.n8n', 'storage'));
			}
			return files;
		},
	};
	return cluster;
}

module.exports = { createQueueCluster, queueModeEnv };
