#!/usr/bin/env node
'use strict';
// `npm run bench`: this package's node against n8n's HTTP Request node in one real n8n, one run,
// side by side; writes BENCHMARKS.md and prints one line per figure with its goal.
const os = require('node:os');
const path = require('node:path');
const { execFileSync, spawnSync } = require('node:child_process');
const { startSandboxProcess } = require('./sandbox');
const { loadRealN8nLibrary, runtimeOf, nodeVersionOf, createBenchN8n } = require('./n8n');
const { credentialRecords, subjects, webhookWorkflow, COMPANY, MONTH } = require('./workflows');
const { itemsRun, rawLoop, downloadRun, streamFloorRun, parseLinesRun, oracleRun, limitedRun, concurrentRuns } = require('./measure');
const { measureTrigger } = require('./trigger');
const { figuresOf, consoleLines, writeReport } = require('./report');
const { formatNumber, MiB } = require('./stats');

const repoRoot = path.resolve(__dirname, '..', '..');
const USAGE = `Usage: npm run bench -- [--runs N] [--n8n-version V] [--no-build] [--output FILE]`;

function parseArgs(argv) {
	const options = { runs: 3, n8nVersion: undefined, build: true, output: path.join(repoRoot, 'BENCHMARKS.md'), items: 1000, lines: 100_000, smallFile: 70_000, largeFile: 50 * MiB };
	for (let index = 0; index < argv.length; index += 1) {
		const [flag, inline] = argv[index].split(/=(.*)/s);
		const value = () => inline ?? argv[(index += 1)];
		if (flag === '--runs') options.runs = Number(value());
		else if (flag === '--n8n-version') options.n8nVersion = value();
		else if (flag === '--no-build') options.build = false;
		else if (flag === '--output') options.output = path.resolve(value());
		else if (flag === '--help') {
			console.log(USAGE);
			process.exit(0);
		} else {
			console.error(`Unknown option ${argv[index]}\n${USAGE}`);
			process.exit(2);
		}
	}
	if (!(Number.isInteger(options.runs) && options.runs > 0)) throw new Error('--runs must be a positive whole number');
	return options;
}

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
		log(`Starting n8n ${runtime.n8nVersion} with the package (${Object.keys(workflows).length} webhook workflows)`);
		bench = await createBenchN8n(lib, { credentials: credentialRecords(sandbox), workflows: Object.values(workflows), log });
		await bench.start();
		machine.nodeVersion = nodeVersionOf(bench.pid);
		const results = { items: { count: options.items, node: [], http: [], rawLoop: [] }, downloads: [], parseLines: { lines: options.lines, bytes: csvBytes.length, node: [], oracle: [] } };

		log(`${options.items} items through Get Status, package node and HTTP Request node alternating`);
		await itemsRun(bench, sandbox, workflows.statusNode, options.items); // warm-up, not counted
		await itemsRun(bench, sandbox, workflows.statusHttp, options.items);
		for (let run = 0; run < options.runs; run += 1) {
			for (const who of orderOf(run)) {
				const measured = await itemsRun(bench, sandbox, who === 'node' ? workflows.statusNode : workflows.statusHttp, options.items);
				results.items[who].push(measured);
				log(`  ${who}: ${formatNumber(measured.nodeMs)} ms, ${measured.requests} requests on ${measured.connections} connections`);
			}
			results.items.rawLoop.push(await rawLoop(sandbox, options.items));
		}

		log("At the service's rate limit (the sandbox's model: 50 reads per second per application), one run each");
		await sandbox.rateLimit(true);
		const limited = { items: options.items, readsPerSecond: 50 };
		limited.node = await limitedRun(bench, sandbox, workflows.limitedNode, options.items);
		limited.http = await limitedRun(bench, sandbox, workflows.limitedHttp, options.items);
		limited.httpBatched = await limitedRun(bench, sandbox, workflows.limitedHttpBatched, options.items);
		limited.twoExecutions = await concurrentRuns(bench, sandbox, [workflows.limitedHalfA, workflows.limitedHalfB], options.items / 2);
		await sandbox.rateLimit(false);
		for (const [who, run] of Object.entries(limited)) {
			if (typeof run === 'object') log(`  ${who}: ${formatNumber(run.nodeMs ?? run.totalMs)} ms, failed ${run.failed}, 429s ${run.refused}`);
		}
		results.limited = limited;

		log(`Parse Lines on ${options.lines} lines, against csv-parse`);
		for (let run = 0; run < options.runs; run += 1) results.parseLines.oracle.push(oracleRun(csvBytes));
		const oracle = results.parseLines.oracle[0];
		for (let run = 0; run < options.runs; run += 1) {
			const measured = await parseLinesRun(bench, workflows.parseLines, oracle);
			results.parseLines.node.push(measured);
			log(`  node: ${formatNumber(measured.nodeMs)} ms, ${measured.lines} items, ${measured.identical ? 'identical' : measured.difference.slice(0, 200)}`);
		}
		for (const run of results.parseLines.oracle) delete run.items;

		log('Trigger: requests of one poll, per activation');
		results.trigger = await measureTrigger(bench, sandbox, options.runs);

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
		results.downloads = [small, large];

		const figures = figuresOf(results);
		const durationMs = Date.now() - startedAt;
		const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
		writeReport(options.output, { figures, machine, results, runs: options.runs, command, durationMs });
		console.log('');
		for (const line of consoleLines(figures)) console.log(line);
		console.log(`\nWrote ${path.relative(process.cwd(), options.output)} (${Math.round(durationMs / 1000)} s).`);
	} finally {
		if (bench) await bench.dispose();
		await sandbox.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
