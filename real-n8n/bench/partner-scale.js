#!/usr/bin/env node
'use strict';
// `node real-n8n/bench/partner-scale.js [--runs N] [--companies N] [--items N] [--no-build]
//   [--in-n8n [--n8n-version V]]`: the Partner API credential at the service's rate limit (50 reads/s per
// application), against the sandbox in its own process with the limit on:
//   1. one poll of the Partner Payroll Trigger over every company × current and previous month;
//   2. the Partner Payroll node's Get Status for N items spread over the companies.
// Prints time / floor (reads ÷ 50 per second), the 429 answers and the requests with another company's
// token (the sandbox's request log), and the machine's load average at the start of each run.
//
// By default in-process: the built package (dist/) run by the root's n8n-core, as the in-process suites
// run it; what is measured is the package's own pacing (every request goes through its transport and
// pacer, whoever calls poll() or execute()). With --in-n8n, inside a real n8n (the bench's n8n.js: the
// package installed from `npm pack`, `n8n start`): the trigger in a workflow published through n8n's
// public API (n8n polls once at each activation; the poll's time is the span of its requests in the
// sandbox's log), and the node behind a webhook (its time as n8n records it, as `npm run bench` does).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { startSandboxProcess } = require('./sandbox');
const { loadRealN8nLibrary, runtimeOf, nodeVersionOf, createBenchN8n } = require('./n8n');
const { MONTH, partnerCredentialRecord, partnerStatusNode, partnerTriggerWorkflow, webhookWorkflow } = require('./workflows');
const { limitedRun } = require('./measure');
const { pollRequests } = require('./trigger');

const repoRoot = path.resolve(__dirname, '..', '..');
const READS_PER_SECOND = 50;
const TIME_ZONE = 'Europe/Paris';

function parseArgs(argv) {
	const options = { runs: 3, companies: 300, items: 1000, build: true, inN8n: false, n8nVersion: undefined };
	for (let index = 0; index < argv.length; index += 1) {
		const [flag, inline] = argv[index].split(/=(.*)/s);
		const text = () => inline ?? argv[(index += 1)];
		const value = () => Number(text());
		if (flag === '--runs') options.runs = value();
		else if (flag === '--companies') options.companies = value();
		else if (flag === '--items') options.items = value();
		else if (flag === '--no-build') options.build = false;
		else if (flag === '--in-n8n') options.inN8n = true;
		else if (flag === '--n8n-version') options.n8nVersion = text();
		else throw new Error(`Unknown option ${argv[index]} (--runs N, --companies N, --items N, --no-build, --in-n8n, --n8n-version V)`);
	}
	if (options.n8nVersion && !options.inN8n) throw new Error('--n8n-version needs --in-n8n');
	if (!(options.companies >= 4 && options.companies <= 3001)) throw new Error('--companies takes 4 to 3001');
	return options;
}

/** n8n-core and the built package, loaded from the repository's root as the in-process suites load them. */
function loadPackage() {
	// As test/support/env.js: n8n-core writes an instance config into its user folder; not ~/.n8n.
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-'));
	process.env.N8N_USER_FOLDER = userFolder;
	process.env.N8N_LOG_LEVEL = 'silent';
	const fromRoot = (name) => require(require.resolve(name, { paths: [repoRoot] }));
	fromRoot('reflect-metadata');
	const dist = (file) => require(path.join(repoRoot, 'dist', file));
	return {
		userFolder,
		core: fromRoot('n8n-core'),
		workflow: fromRoot('n8n-workflow'),
		credential: new (dist('credentials/PartnerPayrollPartnerApi.credentials.js').PartnerPayrollPartnerApi)(),
		trigger: new (dist('nodes/PartnerPayrollTrigger/PartnerPayrollTrigger.node.js').PartnerPayrollTrigger)(),
		node: new (dist('nodes/PartnerPayroll/PartnerPayroll.node.js').PartnerPayroll)(),
	};
}

/** What n8n gives a node: the credential's data, and its function authentication applied per request. */
function additionalDataFor(pkg, credentials) {
	class CredentialsHelper extends pkg.workflow.ICredentialsHelper {
		getParentTypes() {
			return [];
		}
		async authenticate(data, _type, requestOptions) {
			return await pkg.credential.authenticate(data, requestOptions);
		}
		async preAuthentication() {
			return undefined;
		}
		async runPreAuthentication() {
			return undefined;
		}
		getCredentialsProperties() {
			return [];
		}
		async getDecrypted() {
			return credentials;
		}
		async getCredentials() {
			throw new Error('not used');
		}
		async updateCredentials() {}
		async updateCredentialsOauthTokenData() {}
	}
	return { credentialsHelper: new CredentialsHelper() };
}

function workflowOf(pkg, nodeType, parameters, staticData = {}) {
	const node = {
		id: 'bench-node',
		name: nodeType.description.defaults.name,
		type: `n8n-nodes-partner-payroll.${nodeType.description.name}`,
		typeVersion: 1,
		position: [0, 0],
		credentials: { partnerPayrollPartnerApi: { id: 'bench', name: 'bench' } },
		parameters: {},
	};
	node.parameters = pkg.workflow.NodeHelpers.getNodeParameters(nodeType.description.properties, parameters, true, false, node, nodeType.description);
	const workflow = new pkg.workflow.Workflow({
		id: 'bench-workflow',
		nodes: [node],
		connections: {},
		active: true,
		staticData,
		settings: { timezone: TIME_ZONE },
		nodeTypes: { getByName: () => nodeType, getByNameAndVersion: () => nodeType, getKnownTypes: () => ({}) },
	});
	return { node, workflow };
}

/** A token of the sandbox's default client for every company: `{companyId, token}`. */
async function issueTokens(sandbox, companyIds) {
	const issued = await sandbox.control(
		'POST',
		'/tokens',
		companyIds.map((companyId) => ({ companyId, scopes: [] })),
	);
	return issued.map(({ companyId, access_token: token }) => ({ companyId, token }));
}

/**
 * What the sandbox logged since the last clear: API requests, 429 answers, requests with another
 * company's token, and the span from the first to the last answer (the log records each at its end).
 */
async function logged(sandbox) {
	const api = (await sandbox.requests()).filter((request) => request.path.startsWith('/api/'));
	const times = api.map((request) => Date.parse(request.time));
	return {
		requests: api.length,
		refused429: api.filter((request) => request.status === 429).length,
		otherToken: api.filter((request) => /\/companies\/([^/]+)/.exec(request.path)?.[1] !== request.tokenCompanyId).length,
		spanMs: times.length ? Math.max(...times) - Math.min(...times) : 0,
		companies: new Set(api.map((request) => /\/companies\/([^/]+)/.exec(request.path)?.[1])).size,
	};
}

/** A second of rest, so a run starts with the service's window (and this process's pace) empty. */
const rest = () => new Promise((resolve) => setTimeout(resolve, 1_500));

/**
 * In-process: n8n-core's contexts call the trigger's poll() and the node's execute(); each poll has
 * fresh static data (a first poll: every company gets its baseline).
 */
function inProcessRunner(pkg, sandbox, options, tokens, companyIds) {
	const credentials = partnerCredentialRecord(sandbox, tokens).data;
	return {
		where: 'in-process (n8n-core of the repository root)',
		async poll() {
			const { node, workflow } = workflowOf(pkg, pkg.trigger, { authentication: 'partnerApi', event: 'payrollCompleted', months: 'both', companies: 'all' });
			const context = new pkg.core.PollContext(workflow, node, additionalDataFor(pkg, credentials), 'trigger', 'activate');
			await sandbox.clearRequests();
			await rest();
			const started = process.hrtime.bigint();
			const fired = await pkg.trigger.poll.call(context);
			const ms = Number(process.hrtime.bigint() - started) / 1e6;
			const state = workflow.staticData.global?.['partnerPayrollTrigger:bench-node'];
			return { ms, fired: `${fired?.[0]?.length ?? 0} items fired`, notReached: state?.partner?.notReached?.length ?? 0, ...(await logged(sandbox)) };
		},
		async items() {
			const itemCount = options.items;
			const parameters = { authentication: 'partnerApi', resource: 'payroll', operation: 'getStatus', companyId: '={{ $json.companyId }}', month: MONTH };
			const { node, workflow } = workflowOf(pkg, pkg.node, parameters);
			node.onError = 'continueRegularOutput';
			const items = Array.from({ length: itemCount }, (_, index) => ({ json: { companyId: companyIds[index % companyIds.length] } }));
			const context = new pkg.core.ExecuteContext(
				workflow,
				node,
				additionalDataFor(pkg, credentials),
				'manual',
				pkg.workflow.createRunExecutionData(),
				0,
				items,
				{ main: [items] },
				{ node, data: { main: [items] }, source: null },
				[],
			);
			await sandbox.clearRequests();
			await rest();
			const started = process.hrtime.bigint();
			const output = (await pkg.node.execute.call(context))[0];
			const ms = Number(process.hrtime.bigint() - started) / 1e6;
			const failed = output.filter((item) => item.json.error !== undefined || item.json.status !== 'completed').length;
			return { ms, output: output.length, failed, ...(await logged(sandbox)) };
		},
		dispose: async () => fs.rmSync(pkg.userFolder, { recursive: true, force: true }),
	};
}

const log = (message) => console.log(`» ${message}`);

/**
 * Inside a real n8n (the bench's n8n.js): the Partner API credential imported, the items workflow
 * (Webhook → Code: N items over the companies → Partner Payroll, Get Status) published at start, and the
 * trigger workflow created through the public API, published for one poll and unpublished again. One poll
 * and one items run with the limit off first: n8n loads the package's code, and the trigger records every
 * company's baseline, so each measured poll is an ordinary poll of a running trigger.
 */
async function inN8nRunner(sandbox, options, tokens, companyIds) {
	const lib = loadRealN8nLibrary(options.n8nVersion);
	await lib.ensureN8nInstalled();
	const runtime = runtimeOf(lib);
	const itemsWorkflow = webhookWorkflow('partnerStatus', { items: options.items, companyIds, node: partnerStatusNode() });
	const bench = await createBenchN8n(lib, { credentials: [partnerCredentialRecord(sandbox, tokens)], workflows: [itemsWorkflow], log });
	await bench.start();
	const trigger = await bench.publicApi('POST', '/workflows', partnerTriggerWorkflow());
	const reads = companyIds.length * 2;
	const runner = {
		where: `in n8n ${runtime.n8nVersion} (Node.js ${nodeVersionOf(bench.pid)})`,
		async poll() {
			await sandbox.clearRequests();
			await rest();
			await bench.publicApi('POST', `/workflows/${trigger.id}/activate`);
			await pollRequests(sandbox, reads);
			await bench.publicApi('POST', `/workflows/${trigger.id}/deactivate`);
			const result = await logged(sandbox);
			const { data: executions } = await bench.publicApi('GET', `/executions?workflowId=${trigger.id}&limit=100`);
			return { ms: result.spanMs, notReached: companyIds.length - result.companies, fired: `${executions.length} executions of the trigger's workflow so far`, ...result };
		},
		async items() {
			await rest();
			const run = await limitedRun(bench, sandbox, itemsWorkflow, options.items);
			for (const message of run.errors) log(`    error: ${message}`);
			return { ms: run.nodeMs, output: options.items, failed: run.failed, ...(await logged(sandbox)) };
		},
		dispose: () => bench.dispose(),
	};
	try {
		await sandbox.rateLimit(false);
		await runner.poll();
		await runner.items();
	} catch (error) {
		await runner.dispose();
		throw error;
	}
	return runner;
}

const ratio = (ms, reads) => (ms / 1000 / (reads / READS_PER_SECOND)).toFixed(3);
const load = () => os.loadavg().map((value) => value.toFixed(2)).join(', ');


async function main() {
	const options = parseArgs(process.argv.slice(2));
	if (options.build) execFileSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
	// Loaded before the sandbox starts: loading takes seconds on a busy machine, and the sandbox closes a
	// kept-alive connection left idle that long.
	const pkg = options.inN8n ? null : loadPackage();
	const sandbox = await startSandboxProcess({ generatedCompanies: options.companies - 4 });
	let runner = null;
	try {
		const seed = await sandbox.control('GET', '/seed');
		const companyIds = seed.companies.map((company) => company.companyId ?? company.id);
		const tokens = await issueTokens(sandbox, companyIds);
		runner = options.inN8n ? await inN8nRunner(sandbox, options, tokens, companyIds) : inProcessRunner(pkg, sandbox, options, tokens, companyIds);
		await sandbox.rateLimit(true);
		const reads = companyIds.length * 2;
		console.log(`Partner scale, ${runner.where}, commit ${commitOf()}`);
		console.log(`Trigger: one poll over ${companyIds.length} companies × 2 months = ${reads} reads; floor ${reads / READS_PER_SECOND} s at ${READS_PER_SECOND} reads/s`);
		for (let run = 1; run <= options.runs; run += 1) {
			const loadAtStart = load();
			const result = await runner.poll();
			console.log(`  run ${run} (load ${loadAtStart}): ${(result.ms / 1000).toFixed(2)} s = ${ratio(result.ms, reads)} × floor; ${result.requests} requests, ${result.refused429} answered 429, ${result.otherToken} with another company's token, ${result.notReached} companies not reached, ${result.fired}`);
		}
		console.log(`Node: Get Status, ${options.items} items over ${companyIds.length} companies; floor ${options.items / READS_PER_SECOND} s`);
		for (let run = 1; run <= options.runs; run += 1) {
			const loadAtStart = load();
			const result = await runner.items();
			console.log(`  run ${run} (load ${loadAtStart}): ${(result.ms / 1000).toFixed(2)} s = ${ratio(result.ms, options.items)} × floor; ${result.output} items, ${result.failed} failed, ${result.requests} requests, ${result.refused429} answered 429, ${result.otherToken} with another company's token`);
		}
	} finally {
		await runner?.dispose();
		await sandbox.stop();
	}
}

function commitOf() {
	try {
		const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
		const changed = execFileSync('git', ['status', '--porcelain', '--', 'nodes', 'credentials'], { cwd: repoRoot, encoding: 'utf8' }).trim();
		return changed ? `${commit} (nodes/ or credentials/ modified)` : commit;
	} catch {
		return 'unknown';
	}
}

// n8n-core, once loaded in-process, keeps handles open: the process ends when the runs end.
main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
