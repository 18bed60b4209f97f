#!/usr/bin/env node
'use strict';
// `npm run bench:profile`-style helper (node real-n8n/bench/profile.js [--n8n-version V] [--runs N]):
// CPU profiles (--cpu-prof) of n8n while it runs 1,000 items through Get Status, once with this
// package's node and once with the HTTP Request node, each in its own n8n process. Only the samples
// taken while a workflow ran count (both processes share CLOCK_MONOTONIC). Prints where the time goes.
// With --webhooks: one n8n receiving the bench's webhook deliveries (the webhook trigger, the community
// trigger that checks nothing, n8n's Webhook node, in turn), with the CPU time per delivery of the whole
// n8n process (its threads too: SQLite works outside JavaScript) beside the profile of each receiver;
// `--env NAME=VALUE` sets an n8n setting for that n8n.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startSandboxProcess } = require('./sandbox');
const { loadRealN8nLibrary, runtimeOf, createBenchN8n } = require('./n8n');
const { credentialRecords, subjects, webhookWorkflow } = require('./workflows');
const { itemsRun } = require('./measure');
const { FIXTURE_PACKAGE, webhookSecretRecord, webhookBenchWorkflows, receiverUrls, sendAll, newMessage, startedByTrigger } = require('./webhooks');

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const RUNS = Number(option('--runs', 3));
const TOP = Number(option('--top', 25));
const nowMicros = () => Number(process.hrtime.bigint() / 1000n);
/** `--env NAME=VALUE` (repeatable): settings of the profiled n8n, to see what one changes. */
const n8nSettings = () =>
	Object.fromEntries(args.flatMap((arg, index) => (arg === '--env' ? [args[index + 1].split(/=(.*)/s).slice(0, 2)] : [])));

const CATEGORIES = [
	['this package', /n8n-nodes-partner-payroll/],
	['the bench fixture (a trigger that checks nothing)', /n8n-nodes-bench-plain-webhook/],
	['TypeORM / SQLite driver (database)', /node_modules\/(@n8n\/typeorm|typeorm|sqlite3)\//],
	['Express / body parsing', /node_modules\/(express|body-parser|raw-body|router)\//],
	['n8n-core (engine)', /n8n-core\//],
	['n8n-workflow (expressions, parameters)', /n8n-workflow\//],
	['HTTP Request node', /n8n-nodes-base\/dist\/nodes\/HttpRequest/],
	['axios / follow-redirects / form-data', /node_modules\/(axios|follow-redirects|form-data|proxy-from-env)\//],
	['other n8n packages', /node_modules\/(n8n|@n8n)\//],
	['other dependencies', /node_modules\//],
	['Node.js internals', /^node:|^internal\//],
];

function categoryOf(node) {
	const { url, functionName } = node.callFrame;
	if (!url) return `(${functionName || 'native'})`;
	return CATEGORIES.find(([, pattern]) => pattern.test(url))?.[0] ?? 'other';
}

function analyse(profile, windows) {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const self = new Map();
	const categories = new Map();
	const inclusivePackage = { samples: 0, frames: new Map() };
	let total = 0;
	let time = profile.startTime;
	profile.samples.forEach((id, index) => {
		time += profile.timeDeltas[index];
		const delta = profile.timeDeltas[index + 1] ?? 0;
		if (!windows.some(([start, end]) => time >= start && time <= end)) return;
		const node = byId.get(id);
		total += delta;
		const key = `${node.callFrame.functionName || '(anonymous)'} ${path.basename(node.callFrame.url || '')}:${node.callFrame.lineNumber + 1}`;
		self.set(key, (self.get(key) ?? 0) + delta);
		const category = categoryOf(node);
		categories.set(category, (categories.get(category) ?? 0) + delta);
		// Time spent anywhere below a frame of the package (its synchronous part).
		let packageFrame = null;
		for (let current = id; current !== undefined; current = parent.get(current)) {
			const frame = byId.get(current).callFrame;
			if (/n8n-nodes-partner-payroll/.test(frame.url)) packageFrame = `${frame.functionName || '(anonymous)'} ${path.basename(frame.url)}:${frame.lineNumber + 1}`;
		}
		if (packageFrame) {
			inclusivePackage.samples += delta;
			inclusivePackage.frames.set(packageFrame, (inclusivePackage.frames.get(packageFrame) ?? 0) + delta);
		}
	});
	return { total, self, categories, inclusivePackage };
}

const msOf = (micros) => `${(micros / 1000).toFixed(0)} ms`;
function printTable(title, map, total, top = TOP) {
	console.log(`\n${title}`);
	for (const [key, value] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
		console.log(`  ${msOf(value).padStart(9)}  ${((100 * value) / total).toFixed(1).padStart(5)} %  ${key}`);
	}
}

async function profileOne(lib, sandbox, runtime, key, workflow, items) {
	const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-profile-${key}-`));
	// n8n's processes only: the machine's Node.js 20 (npm pack) refuses --cpu-prof in NODE_OPTIONS.
	const bench = await createBenchN8n(lib, {
		credentials: credentialRecords(sandbox),
		workflows: [workflow],
		log: () => {},
		extraEnv: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` },
	});
	const windows = [];
	const runs = [];
	try {
		await bench.start();
		const pid = bench.pid;
		await itemsRun(bench, sandbox, workflow, items); // warm-up
		for (let run = 0; run < RUNS; run += 1) {
			const start = nowMicros();
			runs.push(await itemsRun(bench, sandbox, workflow, items));
			windows.push([start, nowMicros()]);
		}
		await bench.stop();
		const file = fs.readdirSync(profileDir).find((name) => name.includes(`.${pid}.`));
		if (!file) throw new Error(`no CPU profile of the n8n process ${pid} in ${profileDir}`);
		return { runs, analysis: analyse(JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')), windows), file: path.join(profileDir, file) };
	} finally {
		await bench.dispose();
	}
}

/** User and system CPU time of a process and its threads so far, in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
function processCpuMs(pid) {
	const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * The webhook receivers in one n8n, each delivery's part apart: the package's trigger on new events
 * (each starts the workflow) and on copies of them (each answered as a duplicate), the community trigger
 * that checks nothing and n8n's Webhook node on new events; `RUNS` rounds in turn. Prints the n8n
 * process's CPU per delivery and, from the profile cut into each part's windows, where it went.
 */
async function profileWebhooks(lib, sandbox) {
	const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-profile-webhooks-'));
	const bench = await createBenchN8n(lib, {
		credentials: [...credentialRecords(sandbox), webhookSecretRecord()],
		workflows: webhookBenchWorkflows(),
		fixturePackages: [FIXTURE_PACKAGE],
		log: () => {},
		// /metrics counts the expression isolates n8n acquires (n8n 2.40's expression engine).
		extraEnv: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}`, N8N_METRICS: 'true', ...n8nSettings() },
	});
	const urls = receiverUrls(bench);
	const isolatesAcquired = async () => {
		const text = await (await fetch(`${bench.instance.url}/metrics`)).text();
		return Number(/^n8n_expression_pool_acquired_total\S*\s+(\d+)/m.exec(text)?.[1] ?? NaN);
	};
	const EVENTS = 100;
	const parts = {
		'trigger, new events': { windows: [], cpuMs: 0, deliveries: 0, started: 0, isolates: 0 },
		'trigger, copies': { windows: [], cpuMs: 0, deliveries: 0, started: 0, isolates: 0 },
		'fixture (checks nothing), new events': { windows: [], cpuMs: 0, deliveries: 0, started: 0, isolates: 0 },
		"n8n's Webhook node, new events": { windows: [], cpuMs: 0, deliveries: 0, started: 0, isolates: 0 },
	};
	try {
		await bench.start();
		const pid = bench.pid;
		const measure = async (part, url, messages) => {
			const isolatesBefore = await isolatesAcquired();
			const cpuBefore = processCpuMs(pid);
			const start = nowMicros();
			const answers = await sendAll(url, messages, 1);
			parts[part].windows.push([start, nowMicros()]);
			parts[part].cpuMs += processCpuMs(pid) - cpuBefore;
			parts[part].isolates += (await isolatesAcquired()) - isolatesBefore;
			parts[part].deliveries += answers.length;
			parts[part].started += startedByTrigger(answers);
		};
		for (const url of Object.values(urls)) await sendAll(url, Array.from({ length: 20 }, newMessage), 2); // warm-up
		for (let run = 0; run < RUNS; run += 1) {
			const messages = Array.from({ length: EVENTS }, newMessage);
			await measure('trigger, new events', urls.trigger, messages);
			await measure('trigger, copies', urls.trigger, messages);
			await measure('fixture (checks nothing), new events', urls.fixture, Array.from({ length: EVENTS }, newMessage));
			await measure("n8n's Webhook node, new events", urls.plain, Array.from({ length: EVENTS }, newMessage));
		}
		await bench.stop();
		const file = fs.readdirSync(profileDir).find((name) => name.includes(`.${pid}.`));
		if (!file) throw new Error(`no CPU profile of the n8n process ${pid} in ${profileDir}`);
		const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8'));
		for (const [part, { windows, cpuMs, deliveries, started, isolates }] of Object.entries(parts)) {
			const analysis = analyse(profile, windows);
			const perDelivery = (micros) => `${(micros / 1000 / deliveries).toFixed(2)} ms per delivery`;
			console.log(`\n===== ${part}: ${deliveries} deliveries${part.startsWith('trigger') ? `, ${started} started the workflow` : ''}`);
			console.log(`n8n process CPU (all threads): ${(cpuMs / deliveries).toFixed(2)} ms per delivery; JavaScript samples: ${perDelivery(analysis.total)}`);
			console.log(`expression isolates n8n acquired: ${(isolates / deliveries).toFixed(2)} per delivery`);
			printTable('By origin (self time):', analysis.categories, analysis.total, 20);
			printTable('Functions (self time):', analysis.self, analysis.total);
			if (analysis.inclusivePackage.samples) {
				console.log(`\nBelow frames of this package (synchronous part): ${perDelivery(analysis.inclusivePackage.samples)}`);
				printTable('Outermost package frame of those samples:', analysis.inclusivePackage.frames, analysis.total, 15);
			}
		}
		console.log(`\nprofile: ${path.join(profileDir, file)}; load average now ${os.loadavg().map((value) => value.toFixed(2)).join(', ')}`);
	} finally {
		await bench.dispose();
	}
}

async function main() {
	const lib = loadRealN8nLibrary(option('--n8n-version'));
	await lib.ensureN8nInstalled();
	const runtime = runtimeOf(lib);
	const sandbox = await startSandboxProcess({ accountingLines: 100, paymentFileBytes: 1000 });
	try {
		if (args.includes('--webhooks')) return await profileWebhooks(lib, sandbox);
		const all = subjects(sandbox, runtime.httpRequestVersion);
		for (const key of ['statusNode', 'statusHttp']) {
			const { runs, analysis, file } = await profileOne(lib, sandbox, runtime, key, webhookWorkflow(key, all[key]), all[key].items);
			console.log(`\n===== ${key}: ${runs.map((run) => `${run.nodeMs} ms (${run.connections} connections)`).join(', ')}; profile ${file}`);
			console.log(`CPU samples while the workflows ran: ${msOf(analysis.total)}`);
			printTable('By origin (self time):', analysis.categories, analysis.total, 20);
			printTable('Functions (self time):', analysis.self, analysis.total);
			if (analysis.inclusivePackage.samples) {
				console.log(`\nBelow frames of this package (synchronous part): ${msOf(analysis.inclusivePackage.samples)}`);
				printTable('Outermost package frame of those samples:', analysis.inclusivePackage.frames, analysis.total, 15);
			}
		}
	} finally {
		await sandbox.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
