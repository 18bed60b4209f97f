#!/usr/bin/env node
'use strict';
// `npm run bench`: this package's node against n8n's HTTP Request node in one real n8n, one run,
// side by side; writes BENCHMARKS.md and prints one line per figure with its goal. `--only` runs some
// sections alone (`--only items,webhooks`) and writes their report elsewhere (never BENCHMARKS.md).
const os = require('node:os');
const path = require('node:path');
const { execFileSync, spawnSync } = require('node:child_process');
const { startSandboxProcess } = require('./sandbox');
const { loadRealN8nLibrary, runtimeOf, nodeVersionOf, createBenchN8n, createBenchQueue } = require('./n8n');
const { credentialRecords, subjects, webhookWorkflow, COMPANY, MONTH, UK_COMPANY, LIMITED_FILES, LISTED_PDFS } = require('./workflows');
const { itemsRun, requestLoop, downloadRun, streamFloorRun, parseLinesRun, oracleRun, limitedRun, limitedFilesRun, concurrentRuns } = require('./measure');
const { measureTrigger } = require('./trigger');
const { FIXTURE_PACKAGE, webhookSecretRecord, webhookBenchWorkflows, measureWebhooks } = require('./webhooks');
const { figuresOf, consoleLines, writeReport } = require('./report');
const { formatNumber, MiB } = require('./stats');

const repoRoot = path.resolve(__dirname, '..', '..');
const USAGE = `Usage: npm run bench -- [--runs N] [--n8n-version V] [--no-build] [--output FILE] [--only SECTION[,SECTION...]] [--n8n-env NAME=VALUE] [--fill-record N]
  --n8n-env NAME=VALUE (repeatable) starts the bench's single n8n with this setting (not queue mode); every row names it
  --fill-record N sends N new events to the webhook trigger before the webhooks section measures (4000 fill
    every list of its record to its bounds, as a partner's month-end does); its rows name it
  --only runs these sections alone and writes them to --output (default
  ${path.join(os.tmpdir(), 'partner-payroll-bench-<sections>.md')}), never to BENCHMARKS.md:
    items              1,000 items through Get Status, the connections they opened, the connection-per-request floor
    rate-limit         the service's rate limit (about 2 minutes)
    parse-lines        Download CSV with Parse Lines against csv-parse
    trigger            the polling trigger's requests per poll
    webhooks           webhook deliveries: the webhook trigger, a community trigger that checks nothing, the Webhook node
    downloads          payment files, small and large, with n8n's RSS rise
    queue-rate-limit   the rate limit in queue mode: Redis, Postgres, a main and two workers (about 2 minutes a run)`;
/** Every section, in the order a full run measures them. */
const SECTIONS = ['items', 'rate-limit', 'parse-lines', 'trigger', 'webhooks', 'downloads', 'queue-rate-limit'];
const COMMITTED_REPORT = path.join(repoRoot, 'BENCHMARKS.md');

function parseArgs(argv) {
	const options = { n8nEnv: [], fillRecord: 0, runs: 3, n8nVersion: undefined, build: true, output: undefined, only: undefined, items: 1000, lines: 100_000, smallFile: 70_000, largeFile: 50 * MiB };
	for (let index = 0; index < argv.length; index += 1) {
		const [flag, inline] = argv[index].split(/=(.*)/s);
		const value = () => inline ?? argv[(index += 1)];
		if (flag === '--runs') options.runs = Number(value());
		else if (flag === '--n8n-version') options.n8nVersion = value();
		else if (flag === '--no-build') options.build = false;
		// npm runs the bench in real-n8n/; a relative --output means the folder the command was typed in.
		else if (flag === '--output') options.output = path.resolve(process.env.INIT_CWD ?? process.cwd(), value());
		else if (flag === '--only') options.only = value().split(',');
		else if (flag === '--n8n-env') options.n8nEnv.push(value());
		else if (flag === '--fill-record') options.fillRecord = Number(value());
		else if (flag === '--help') {
			console.log(USAGE);
			process.exit(0);
		} else {
			console.error(`Unknown option ${argv[index]}\n${USAGE}`);
			process.exit(2);
		}
	}
	if (!(Number.isInteger(options.runs) && options.runs > 0)) throw new Error('--runs must be a positive whole number');
	if (!(Number.isInteger(options.fillRecord) && options.fillRecord >= 0)) throw new Error('--fill-record must be a whole number of events (0 or more)');
	if (options.fillRecord > 0 && !wanted(options, 'webhooks')) throw new Error('--fill-record fills the webhook trigger\'s record before the webhooks section: add webhooks to --only');
	const unknown = options.only?.filter((section) => !SECTIONS.includes(section)) ?? [];
	if (unknown.length > 0) throw new Error(`--only takes sections among: ${SECTIONS.join(', ')} (not ${unknown.join(', ')})`);
	if (options.only) {
		// A part of the figures must not replace the full report.
		options.output ??= path.join(os.tmpdir(), `partner-payroll-bench-${options.only.join('-')}.md`);
		if (options.output === COMMITTED_REPORT) throw new Error(`--only ${options.only.join(',')} writes a partial report: choose another --output than BENCHMARKS.md`);
	}
	// Queue mode starts n8n processes of its own, without these settings.
	if (options.n8nEnv.length && wanted(options, 'queue-rate-limit')) throw new Error('--n8n-env sets the single n8n only: choose sections with --only, without queue-rate-limit');
	options.output ??= COMMITTED_REPORT;
	return options;
}

/** Whether this run measures `section`: every section without --only. */
const wanted = (options, section) => !options.only || options.only.includes(section);

const benchStarted = Date.now();
const log = (message) => console.log(`» [${String(Math.round((Date.now() - benchStarted) / 1000)).padStart(3)} s] ${message}`);
/** Run 0, 2, 4... measures the package's node first, run 1, 3... the HTTP Request node first. */
const orderOf = (run) => (run % 2 === 0 ? ['node', 'http'] : ['http', 'node']);

function machineInfo(runtime) {
	const git = (args) => {
		try {
			return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
		} catch {
			return 'unknown';
		}
	};
	return {
		date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
		cores: os.cpus().length,
		cpuModel: os.cpus()[0]?.model ?? 'unknown',
		memory: `${formatNumber(os.totalmem() / 1024 ** 3, 1)} GiB`,
		load: os.loadavg().map((value) => value.toFixed(2)).join(', '),
		n8nVersion: runtime.n8nVersion,
		httpRequestVersion: runtime.httpRequestVersion,
		packageVersion: require(path.join(repoRoot, 'package.json')).version,
		commit: `${git(['rev-parse', '--short', 'HEAD'])}${git(['status', '--porcelain', '--', 'nodes', 'credentials']) ? ' (nodes/ or credentials/ modified)' : ''}`,
	};
}

/**
 * At the service's rate limit (the sandbox's model, 50 reads per second per application), one run each:
 * 1,000 Get Status items of the node and of the HTTP Request node (default settings and Batching), two
 * executions of 500 items at once, then 20 payment files in one execution and a listing with Download
 * Files of 50 PDFs (the sandbox reset to the small payment file and 50 listed documents).
 */
async function rateLimitSection(bench, sandbox, workflows, options, knobs) {
	log("At the service's rate limit (the sandbox's model: 50 reads per second per application), one run each");
	await sandbox.rateLimit(true);
	const limited = { items: options.items, readsPerSecond: 50 };
	limited.node = await limitedRun(bench, sandbox, workflows.limitedNode, options.items);
	limited.http = await limitedRun(bench, sandbox, workflows.limitedHttp, options.items);
	limited.httpBatched = await limitedRun(bench, sandbox, workflows.limitedHttpBatched, options.items);
	limited.twoExecutions = await concurrentRuns(bench, sandbox, [workflows.limitedHalfA, workflows.limitedHalfB], options.items / 2);

	// A reset turns the limit off: on again after it.
	await sandbox.reset({ ...knobs(options.smallFile), listedDocuments: LISTED_PDFS });
	await sandbox.rateLimit(true);
	const paymentFile = await sandbox.download(`/companies/${COMPANY}/payment-files?date=${MONTH}`);
	limited.paymentFiles = await limitedFilesRun(bench, sandbox, workflows.limitedFiles, {
		expectedFiles: LIMITED_FILES,
		check: (bytes) => (bytes.equals(paymentFile) ? null : `a payment file of ${bytes.length} bytes differs from the ${paymentFile.length} served`),
	});
	limited.paymentFiles.bytes = paymentFile.length;
	limited.listing = await limitedFilesRun(bench, sandbox, workflows.limitedListing, {
		expectedFiles: LISTED_PDFS,
		check: (bytes) => (bytes.subarray(0, 5).toString('latin1') === '%PDF-' ? null : 'a listed document is not a PDF'),
	});
	limited.listing.company = UK_COMPANY;
	await sandbox.reset(knobs(options.smallFile)); // limit off, the seeded listing
	for (const [who, run] of Object.entries(limited)) {
		if (typeof run !== 'object') continue;
		const files = run.expectedFiles ? `, files ${run.files}/${run.expectedFiles}, ${run.served} requests served` : '';
		log(`  ${who}: ${formatNumber(run.totalMs ?? run.nodeMs)} ms, failed ${run.failed}${files}, 429s ${run.refused}`);
		for (const message of run.errors ?? []) log(`    error: ${message}`);
	}
	return limited;
}

/**
 * The same limit in n8n's queue mode: a main and two workers, each running one execution at a time, so
 * every worker is a process with a pace of its own. Per run: 1,000 items in one execution (one worker),
 * then two executions of 500 started at the same moment (one on each worker). The single n8n is stopped
 * first, so that its process does not compete for the machine.
 */
async function queueRateLimitSection(lib, sandbox, all, options) {
	log('Queue mode: a main and two workers (Redis, Postgres), the same limit, each worker one execution at a time');
	const keys = ['limitedNode', 'limitedHalfA', 'limitedHalfB'];
	const workflows = Object.fromEntries(keys.map((key) => [key, webhookWorkflow(key, all[key])]));
	const queue = await createBenchQueue(lib, { credentials: credentialRecords(sandbox), workflows: Object.values(workflows), log });
	try {
		const halves = [workflows.limitedHalfA, workflows.limitedHalfB];
		await sandbox.rateLimit(false);
		await concurrentRuns(queue, sandbox, halves, options.items / 2); // warm-up (limit off): both workers load the node's code
		await sandbox.rateLimit(true);
		const result = { items: options.items, readsPerSecond: 50, workers: queue.cluster.workers.length, runs: [] };
		for (let run = 0; run < options.runs; run += 1) {
			const load = os.loadavg()[0].toFixed(2);
			const one = await limitedRun(queue, sandbox, workflows.limitedNode, options.items);
			one.worker = queue.workerOf(one.executionId);
			const two = await concurrentRuns(queue, sandbox, halves, options.items / 2);
			two.workers = two.executionIds.map((id) => queue.workerOf(id));
			result.runs.push({ load, one, two });
			log(`  run ${run + 1} (load ${load}): 1,000 items on ${one.worker}: ${formatNumber(one.nodeMs)} ms, failed ${one.failed}, 429s ${one.refused}`);
			log(`  run ${run + 1}: 2 × 500 on ${two.workers.join(' and ')}: ${formatNumber(two.totalMs)} ms, failed ${two.failed.join(' and ')}, 429s ${two.refused}`);
			for (const message of [...one.errors, ...two.errors]) log(`    error: ${message}`);
		}
		return result;
	} finally {
		await sandbox.rateLimit(false);
		await queue.dispose();
	}
}

/** 1,000 items through Get Status, the package's node and the HTTP Request node alternating, and the bench's own loops. */
async function itemsSection(bench, sandbox, workflows, options) {
	log(`${options.items} items through Get Status, package node and HTTP Request node alternating`);
	const items = { count: options.items, node: [], http: [], connectionPerRequest: [], keptAlive: [] };
	await itemsRun(bench, sandbox, workflows.statusNode, options.items); // warm-up, not counted
	await itemsRun(bench, sandbox, workflows.statusHttp, options.items);
	for (let run = 0; run < options.runs; run += 1) {
		for (const who of orderOf(run)) {
			const measured = await itemsRun(bench, sandbox, who === 'node' ? workflows.statusNode : workflows.statusHttp, options.items);
			items[who].push(measured);
			log(`  ${who}: ${formatNumber(measured.nodeMs)} ms, ${measured.requests} requests on ${measured.connections} connections`);
		}
		for (const [key, keepAlive] of [['connectionPerRequest', false], ['keptAlive', true]]) {
			const loop = await requestLoop(sandbox, options.items, { keepAlive });
			items[key].push(loop);
			log(`  ${key} loop from the bench: ${formatNumber(loop.ms)} ms, ${loop.requests} requests on ${loop.connections} connections`);
		}
	}
	return items;
}

/**
 * Payment file downloads, the small and the large size, the package's node and the HTTP Request node
 * alternating, each in a freshly started n8n, and the floor of a streamed download.
 */
async function downloadsSection(lib, bench, sandbox, workflows, options, knobs) {
	log(`Payment file downloads (${options.smallFile} bytes and ${options.largeFile} bytes), each in a freshly started n8n`);
	const small = { bytes: 0, node: [], http: [] };
	const large = { bytes: 0, node: [], http: [], streamFloor: [] };
	const paymentFile = `/companies/${COMPANY}/payment-files?date=${MONTH}`;
	for (let run = 0; run < options.runs; run += 1) {
		for (const who of orderOf(run)) {
			const workflow = who === 'node' ? workflows.fileNode : workflows.fileHttp;
			await sandbox.reset(knobs(options.smallFile));
			small.bytes = (await sandbox.download(paymentFile)).length;
			await bench.restart();
			await downloadRun(bench, workflow, small.bytes); // warm-up: loads the node's code
			small[who].push(await downloadRun(bench, workflow, small.bytes));
			await sandbox.reset(knobs(options.largeFile));
			large.bytes = (await sandbox.download(paymentFile)).length; // also warms the sandbox's cache
			const measured = await downloadRun(bench, workflow, large.bytes);
			large[who].push(measured);
			log(`  ${who}: ${formatNumber(measured.nodeMs)} ms, RSS +${formatNumber(measured.rise / MiB, 1)} MiB (${measured.processes} processes)`);
		}
		const floor = await streamFloorRun(sandbox, lib.n8nRuntime().pathEnv(), paymentFile, large.bytes);
		large.streamFloor.push(floor);
		log(`  plain Node.js stream to a file: RSS +${formatNumber(floor.rise / MiB, 1)} MiB`);
	}
	return [small, large];
}

async function main() {
	const options = parseArgs(process.argv.slice(2));
	const startedAt = Date.now();
	if (options.build) {
		log('Building the package (npm run build)');
		const built = spawnSync('npm', ['run', '--silent', 'build'], { cwd: repoRoot, encoding: 'utf8' });
		if (built.status !== 0) throw new Error(`npm run build failed\n${built.stdout}${built.stderr}`);
	}
	const lib = loadRealN8nLibrary(options.n8nVersion);
	await lib.ensureN8nInstalled();
	const runtime = runtimeOf(lib);
	const machine = machineInfo(runtime);

	log(`Starting the sandbox (--accounting-lines ${options.lines} --payment-file-bytes ${options.smallFile})`);
	const knobs = (paymentFileBytes) => ({ accountingLines: options.lines, paymentFileBytes });
	const sandbox = await startSandboxProcess(knobs(options.smallFile));
	let bench = null;
	try {
		const csvBytes = await sandbox.download(`/companies/${COMPANY}/accounting?date=${MONTH}`); // also warms its cache
		const all = subjects(sandbox, runtime.httpRequestVersion);
		const workflows = Object.fromEntries(Object.entries(all).map(([key, subject]) => [key, webhookWorkflow(key, subject)]));
		if (options.only?.length === 1 && wanted(options, 'queue-rate-limit')) {
			const results = { queueLimited: await queueRateLimitSection(lib, sandbox, all, options) };
			machine.nodeVersion = lib.n8nRuntime().nodeVersion;
			return finish(options, { machine, results, startedAt });
		}
		log(`Starting n8n ${runtime.n8nVersion} with the package (${Object.keys(workflows).length} webhook workflows)`);
		bench = await createBenchN8n(lib, {
			credentials: [...credentialRecords(sandbox), webhookSecretRecord()],
			workflows: [...Object.values(workflows), ...webhookBenchWorkflows()],
			fixturePackages: [FIXTURE_PACKAGE],
			extraEnv: Object.fromEntries(options.n8nEnv.map((setting) => setting.split(/=(.*)/s).slice(0, 2))),
			log,
		});
		await bench.start();
		machine.nodeVersion = nodeVersionOf(bench.pid);
		const results = {};

		if (wanted(options, 'items')) results.items = await itemsSection(bench, sandbox, workflows, options);
		if (wanted(options, 'rate-limit')) {
			if (!results.items) await itemsRun(bench, sandbox, workflows.statusNode, options.items); // warm-up (limit off): loads the node's code
			results.limited = await rateLimitSection(bench, sandbox, workflows, options, knobs);
		}
		if (wanted(options, 'parse-lines')) {
			log(`Parse Lines on ${options.lines} lines, against csv-parse`);
			results.parseLines = { lines: options.lines, bytes: csvBytes.length, node: [], oracle: [] };
			for (let run = 0; run < options.runs; run += 1) results.parseLines.oracle.push(oracleRun(csvBytes));
			const oracle = results.parseLines.oracle[0];
			for (let run = 0; run < options.runs; run += 1) {
				const measured = await parseLinesRun(bench, workflows.parseLines, oracle);
				results.parseLines.node.push(measured);
				log(`  node: ${formatNumber(measured.nodeMs)} ms, ${measured.lines} items, ${measured.identical ? 'identical' : measured.difference.slice(0, 200)}`);
			}
			for (const run of results.parseLines.oracle) delete run.items;
		}
		if (wanted(options, 'trigger')) {
			log('Trigger: requests of one poll, per activation');
			results.trigger = await measureTrigger(bench, sandbox, options.runs);
		}
		if (wanted(options, 'webhooks')) {
			log("Webhook deliveries: the webhook trigger (signature checked, duplicates recorded), a community trigger that checks nothing, and n8n's Webhook node");
			results.webhooks = await measureWebhooks(bench, sandbox, options.runs, log, { fillRecord: options.fillRecord });
		}
		if (wanted(options, 'downloads')) results.downloads = await downloadsSection(lib, bench, sandbox, workflows, options, knobs);
		if (wanted(options, 'queue-rate-limit')) {
			await bench.stop();
			results.queueLimited = await queueRateLimitSection(lib, sandbox, all, options);
		}
		finish(options, { machine, results, startedAt });
	} finally {
		if (bench) await bench.dispose();
		await sandbox.stop();
	}
}

function finish(options, { machine, results, startedAt }) {
	const figures = figuresOf(results).map((figure) =>
		options.n8nEnv.length ? { ...figure, subject: `${figure.subject} (n8n started with ${options.n8nEnv.join(', ')})` } : figure,
	);
	const durationMs = Date.now() - startedAt;
	const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
	writeReport(options.output, { figures, machine, results, runs: options.runs, command, durationMs, only: options.only });
	console.log('');
	for (const line of consoleLines(figures)) console.log(line);
	console.log(`\nWrote ${path.relative(process.cwd(), options.output)} (${Math.round(durationMs / 1000)} s).`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
