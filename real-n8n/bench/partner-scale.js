#!/usr/bin/env node
'use strict';
// `node real-n8n/bench/partner-scale.js [--runs N] [--companies N] [--items N] [--no-build]`: the Partner
// API credential at the service's rate limit (50 reads/s per application), against the sandbox in its
// own process with the limit on:
//   1. one poll of the Partner Payroll Trigger over every company × current and previous month;
//   2. the Partner Payroll node's Get Status for N items spread over the companies.
// Prints time / floor (reads ÷ 50 per second) and the 429 answers of the sandbox's request log.
//
// In-process: the built package (dist/) run by the root's n8n-core, as the in-process suites run it,
// not in a real n8n like `npm run bench`. What is measured is the package's own pacing (every request
// goes through its transport and pacer, whoever calls poll() or execute()); n8n adds nothing per request
// there, and the real-n8n rate-limit section measures the node's 1,000 items in a real n8n already.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { startSandboxProcess } = require('./sandbox');

const repoRoot = path.resolve(__dirname, '..', '..');
const READS_PER_SECOND = 50;
const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-'));
const TIME_ZONE = 'Europe/Paris';

function parseArgs(argv) {
	const options = { runs: 3, companies: 300, items: 1000, build: true };
	for (let index = 0; index < argv.length; index += 1) {
		const [flag, inline] = argv[index].split(/=(.*)/s);
		const value = () => Number(inline ?? argv[(index += 1)]);
		if (flag === '--runs') options.runs = value();
		else if (flag === '--companies') options.companies = value();
		else if (flag === '--items') options.items = value();
		else if (flag === '--no-build') options.build = false;
		else throw new Error(`Unknown option ${argv[index]} (--runs N, --companies N, --items N, --no-build)`);
	}
	if (!(options.companies >= 4 && options.companies <= 3001)) throw new Error('--companies takes 4 to 3001');
	return options;
}

/** n8n-core and the built package, loaded from the repository's root as the in-process suites load them. */
function loadPackage() {
	// As test/support/env.js: n8n-core writes an instance config into its user folder; not ~/.n8n.
	process.env.N8N_USER_FOLDER = userFolder;
	process.env.N8N_LOG_LEVEL = 'silent';
	const fromRoot = (name) => require(require.resolve(name, { paths: [repoRoot] }));
	fromRoot('reflect-metadata');
	const dist = (file) => require(path.join(repoRoot, 'dist', file));
	return {
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

/** The Partner API credential with one row per company, each token bound to its company. */
async function partnerCredential(sandbox, companyIds) {
	const issued = await sandbox.control(
		'POST',
		'/tokens',
		companyIds.map((companyId) => ({ companyId, scopes: [] })),
	);
	return {
		baseUrl: sandbox.apiBaseUrl,
		authServerUrl: sandbox.authServerUrl,
		clientId: 'n8n-local',
		clientSecret: '',
		companies: {
			company: issued.map(({ companyId, access_token }) => ({ companyId, label: `Client ${companyId}`, accessToken: `${companyId}:${access_token}` })),
		},
	};
}

/** What the sandbox logged since the last clear: API requests, 429 answers, requests with another company's token. */
async function logged(sandbox) {
	const api = (await sandbox.requests()).filter((request) => request.path.startsWith('/api/'));
	return {
		requests: api.length,
		refused429: api.filter((request) => request.status === 429).length,
		otherToken: api.filter((request) => /\/companies\/([^/]+)/.exec(request.path)?.[1] !== request.tokenCompanyId).length,
	};
}

/** A second of rest, so a run starts with the service's window (and this process's pace) empty. */
const rest = () => new Promise((resolve) => setTimeout(resolve, 1_500));

async function pollRun(pkg, sandbox, credentials) {
	const { node, workflow } = workflowOf(pkg, pkg.trigger, { authentication: 'partnerApi', event: 'payrollCompleted', months: 'both', companies: 'all' });
	const context = new pkg.core.PollContext(workflow, node, additionalDataFor(pkg, credentials), 'trigger', 'activate');
	await sandbox.clearRequests();
	await rest();
	const started = process.hrtime.bigint();
	const fired = await pkg.trigger.poll.call(context);
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	const state = workflow.staticData.global?.['partnerPayrollTrigger:bench-node'];
	return { ms, fired: fired?.[0]?.length ?? 0, notReached: state?.partner?.notReached?.length ?? 0, ...(await logged(sandbox)) };
}

async function itemsRun(pkg, sandbox, credentials, companyIds, itemCount) {
	const parameters = { authentication: 'partnerApi', resource: 'payroll', operation: 'getStatus', companyId: '={{ $json.companyId }}', month: '202610' };
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
}

const ratio = (ms, reads) => (ms / 1000 / (reads / READS_PER_SECOND)).toFixed(3);

async function main() {
	const options = parseArgs(process.argv.slice(2));
	if (options.build) execFileSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
	const pkg = loadPackage();
	const sandbox = await startSandboxProcess({ generatedCompanies: options.companies - 4 });
	try {
		const seed = await sandbox.control('GET', '/seed');
		const companyIds = seed.companies.map((company) => company.companyId ?? company.id);
		const credentials = await partnerCredential(sandbox, companyIds);
		await sandbox.rateLimit(true);
		const reads = companyIds.length * 2;
		console.log(`Trigger: one poll over ${companyIds.length} companies × 2 months = ${reads} reads; floor ${reads / READS_PER_SECOND} s at ${READS_PER_SECOND} reads/s`);
		for (let run = 1; run <= options.runs; run += 1) {
			const result = await pollRun(pkg, sandbox, credentials);
			console.log(`  run ${run}: ${(result.ms / 1000).toFixed(2)} s = ${ratio(result.ms, reads)} × floor; ${result.requests} requests, ${result.refused429} answered 429, ${result.otherToken} with another company's token, ${result.notReached} companies not reached, ${result.fired} items`);
		}
		console.log(`Node: Get Status, ${options.items} items over ${companyIds.length} companies; floor ${options.items / READS_PER_SECOND} s`);
		for (let run = 1; run <= options.runs; run += 1) {
			const result = await itemsRun(pkg, sandbox, credentials, companyIds, options.items);
			console.log(`  run ${run}: ${(result.ms / 1000).toFixed(2)} s = ${ratio(result.ms, options.items)} × floor; ${result.output} items, ${result.failed} failed, ${result.refused429} answered 429, ${result.otherToken} with another company's token`);
		}
	} finally {
		await sandbox.stop();
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
