#!/usr/bin/env node
'use strict';
// `npm start`: a local n8n (the newest supported version) with this package installed as a community
// package, connected to the Partner Payroll sandbox, with ready credentials and example workflows.
// Ctrl-C stops everything it started.
//
//   npm start                       the newest supported n8n (see real-n8n/lib/runtimes.js), SQLite
//   npm start -- --n8n=2.8.4        the pinned older n8n instead (also: PARTNER_PAYROLL_N8N=2.8.4 npm start)
//   npm run start:queue             queue mode: Redis, Postgres, a main instance and two workers
//                                   (`node real-n8n/scripts/start.js --queue`)
//   npm start -- --rate-limit       the sandbox enforces the service's rate limit (50 reads and 20 writes
//                                   per second per application) and announces it in every answer
//   npm start -- --reset-examples   re-imports every example workflow as shipped, over your changes to it
//
// User folders (kept between runs: owner account, your workflows and executions, and the sandbox's
// sandbox-state.json: the tokens it issued and its webhook endpoints; n8n-api-key.json: the owner's n8n API
// key that the connect example's n8n API credential holds): .n8n-demo/ for the newest n8n,
// .n8n-demo-<version>/ for another one, .n8n-queue/ for queue mode (main/, worker-1/, worker-2/, redis/,
// postgres/). Every run rebuilds, re-packs and re-installs the package on every instance, so code
// changes are picked up.

const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawnSync } = require('node:child_process');
const { startSandbox } = require('../../sandbox/server');
const { COMPANIES: SEEDED_COMPANIES } = require('../../sandbox/seed');
const { keepSecretFolder, writeSecretFile } = require('../../sandbox/secret-files');
const {
	repoRoot,
	RUNTIMES,
	runtimeFromArgs,
	ensureN8nInstalled,
	installedN8nVersion,
	packPackage,
	installPackageInto,
	n8nEnv,
	N8nCli,
	startN8n,
	N8nRest,
	isPortInUse,
	ALL_SCOPES,
	exampleCredentials,
	importExamples,
	importMissingCredentials,
	demoOverview,
	DEMO_WEBHOOK,
	ALL_COMPANIES_CREDENTIAL,
	PARTNER_CONNECT_DEMO,
	ensureConnectLink,
	keptApiKey,
	newDemoWebhookSecret,
	demoWebhookUrl,
	partnerDemoWebhookUrl,
	ensureDemoEndpoint,
	tokenCredentialId,
	lastMonth,
	ensurePayrollCompleted,
	ensureDebianPackages,
	createQueueCluster,
} = require('../lib');

const QUEUE = process.argv.includes('--queue');
const RATE_LIMIT = process.argv.includes('--rate-limit');
const RESET_EXAMPLES = process.argv.includes('--reset-examples');
const RUNTIME = runtimeFromArgs();
const PORTS = { sandbox: 4010, n8n: 5678, taskBroker: 5679 };
// Queue mode: the main as above, plus Redis, Postgres and two workers on ports of their own.
const QUEUE_PORTS = {
	...PORTS,
	mainBroker: PORTS.taskBroker,
	cli: 5680,
	redis: 6390,
	postgres: 5442,
	workers: [
		{ health: 5681, broker: 5691 },
		{ health: 5682, broker: 5692 },
	],
};
const QUEUE_FOLDER = path.join(repoRoot, '.n8n-queue');
const USER_FOLDER = QUEUE
	? path.join(QUEUE_FOLDER, 'main')
	: path.join(repoRoot, RUNTIME === RUNTIMES[0] ? '.n8n-demo' : `.n8n-demo-${RUNTIME.n8nVersion}`);
const IMPORTED_EXAMPLES_FILE = path.join(USER_FOLDER, 'imported-examples.json');
const TOKENS_FILE = path.join(USER_FOLDER, 'sandbox-tokens.json');
// The sandbox's own: the tokens it issued (OAuth2 Connect) and its webhook endpoints, across restarts.
const SANDBOX_STATE_FILE = path.join(USER_FOLDER, 'sandbox-state.json');
const WEBHOOK_SECRET_FILE = path.join(USER_FOLDER, 'sandbox-webhook-secret.json');
// The owner's n8n API key that the connect example's n8n API credential holds, kept across starts.
const N8N_API_KEY_FILE = path.join(USER_FOLDER, 'n8n-api-key.json');
// What tells that n8n's database still holds what was imported.
const DATABASE_FILE = QUEUE
	? path.join(QUEUE_FOLDER, 'postgres', 'data', 'PG_VERSION')
	: path.join(USER_FOLDER, '.n8n', 'database.sqlite');

const say = (message = '') => console.log(message);
const step = (message) => console.log(`» ${message}`);

function buildPackage() {
	step('Building the package (npm run build)');
	const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: repoRoot, stdio: 'inherit' });
	if (result.status !== 0) throw new Error('npm run build failed');
}

async function checkPortsAreFree() {
	const ports = QUEUE
		? {
				...PORTS,
				cli: QUEUE_PORTS.cli,
				redis: QUEUE_PORTS.redis,
				postgres: QUEUE_PORTS.postgres,
				...Object.fromEntries(
					QUEUE_PORTS.workers.flatMap((worker, index) => [
						[`worker-${index + 1} health check`, worker.health],
						[`worker-${index + 1} task broker`, worker.broker],
					]),
				),
			}
		: PORTS;
	for (const [what, port] of Object.entries(ports)) {
		if (await isPortInUse(port)) {
			throw new Error(`Port ${port} (${what}) is already in use on 127.0.0.1: is another "npm start" running?`);
		}
	}
}

function packTarball() {
	step('Packing the package (npm pack)');
	return packPackage(path.join(QUEUE ? QUEUE_FOLDER : USER_FOLDER, 'package-tarball'));
}

/**
 * One sandbox token (company API key, kind apiKey) per seeded company, made once and kept in the user
 * folder; the sandbox gets them at every start as tokens given at start, which survive its reset too, so
 * the imported credentials stay valid. A company seeded later gets its token at the next start.
 * Company API keys are not replaced when someone connects the OAuth2 credential to the same company.
 * `newCompanyIds`: the companies whose token was made now (their credential must be imported again).
 */
function demoTokens() {
	const kept = fs.existsSync(TOKENS_FILE) ? JSON.parse(fs.readFileSync(TOKENS_FILE, 'utf8')) : [];
	const made = SEEDED_COMPANIES.filter((company) => !kept.some((token) => token.companyId === company.id)).map((company) => ({
		token: `sbx_demo_${crypto.randomBytes(18).toString('base64url')}`,
		companyId: company.id,
		scopes: [...ALL_SCOPES],
		kind: 'apiKey',
	}));
	const tokens = [...kept, ...made];
	if (made.length > 0) writeSecretFile(TOKENS_FILE, `${JSON.stringify(tokens, null, 2)}\n`);
	return { tokens, newCompanyIds: made.map((token) => token.companyId) };
}

/**
 * The signing secret of the sandbox's endpoint for the webhook example, made once and kept like the tokens;
 * the sandbox gets the endpoint (its production URL) back at every start.
 */
function demoWebhookSecret() {
	if (fs.existsSync(WEBHOOK_SECRET_FILE)) {
		return { signingSecret: JSON.parse(fs.readFileSync(WEBHOOK_SECRET_FILE, 'utf8')).signingSecret, fresh: false };
	}
	const signingSecret = newDemoWebhookSecret();
	writeSecretFile(WEBHOOK_SECRET_FILE, `${JSON.stringify({ signingSecret }, null, 2)}\n`);
	return { signingSecret, fresh: true };
}

function printWelcome({ n8n, owner, sandbox, n8nCredentials, cluster, connectLink }) {
	const overview = demoOverview(sandbox, n8nCredentials);
	const client = overview.newOAuth2Credential;
	say();
	say(`n8n ${installedN8nVersion(RUNTIME)} (Node.js ${RUNTIME.nodeVersion}) is running with the Partner Payroll nodes installed.`);
	if (cluster) {
		say(`Queue mode: main instance on ${n8n.url} (editor, webhooks, the trigger's polls), ${cluster.workers.length} workers`);
		say(`running the executions, Redis 127.0.0.1:${cluster.redis.port}, Postgres 127.0.0.1:${cluster.postgres.port}, binary data in the database.`);
	}
	say();
	// Not localhost: the OAuth2 redirect address registered at the sandbox is the 127.0.0.1 one.
	say(`  Editor:    ${n8n.url}/   (use this address, not localhost, for the OAuth2 Connect)`);
	say(`  Log in:    ${owner.email}   password: ${owner.password}`);
	say(`  Workflows: the "Example: ..." workflows; open one and click "Execute workflow". n8n saves every edit:`);
	say(`             duplicate an example before changing it; "npm start -- --reset-examples" restores them all.`);
	say(`  Sandbox companies, each with a ready access-token credential (all five scopes):`);
	for (const company of overview.companies) {
		say(`    ${company.id}  ${`${company.name} (${company.country})`.padEnd(34)} ${company.credential ?? '(none in n8n)'}`);
	}
	say(`  OAuth2:    "${overview.oauth2Credential ?? '(none in n8n)'}": click "Connect" ("Connect my account" in n8n 2.8), pick a company.`);
	say(`             A new Partner Payroll OAuth2 API credential: Client ID ${client.clientId}, Client Secret ${client.clientSecret}`);
	say(`             (the sandbox's local test secret), Authorization Server URL ${client.authServerUrl},`);
	say(`             API Base URL ${client.apiBaseUrl}, all five Scopes.`);
	if (overview.otherCredentials.length > 0) say(`  Other credentials: ${overview.otherCredentials.join(', ')}`);
	say(`  Webhooks:  the sandbox sends signed payroll.run events to ${demoWebhookUrl(n8n.url)}`);
	say(`             (the published "Example: payroll run by webhook..."): complete a month with POST ${sandbox.url}/_sandbox/payroll-status`);
	say(`             {"companyId":"FR1001","month":"202611","status":"completed"}, or POST .../_sandbox/webhooks/payroll-run.`);
	say(`  Partner:   the published "Example: partner..." downloads the payment file of each company in`);
	const filesAt = cluster ? `${path.relative(repoRoot, QUEUE_FOLDER)}/worker-*/files/ (of the worker that ran it)` : `${path.relative(repoRoot, USER_FOLDER)}/files/`;
	say(`             "${PARTNER_CONNECT_DEMO.credential.name}" when its payroll runs, into ${filesAt}.`);
	say(`  Connect:   ${connectLink}`);
	say(`             the connect link of the published "Example: partner, connect link...": open it as a client's administrator,`);
	say(`             pick a company and accept; it appears in "${PARTNER_CONNECT_DEMO.credential.name}", and the partner example`);
	say(`             serves it from then on; a month it completed before comes with the sandbox's next webhook retry (Svix's schedule).`);
	say(`             "${ALL_COMPANIES_CREDENTIAL.name}" holds every company above, for your own workflows.`);
	say(`  Sandbox:   API ${sandbox.apiBaseUrl}   control ${sandbox.url}/_sandbox`);
	say(`             keeps its tokens and webhook endpoints in ${path.relative(repoRoot, SANDBOX_STATE_FILE)}: connected stays connected.`);
	say(`  n8n log:   ${path.relative(repoRoot, n8n.logFile)}`);
	if (cluster) {
		for (const worker of cluster.workers) say(`  ${worker.name} log: ${path.relative(repoRoot, worker.logFile)}`);
	}
	say();
	say(cluster ? 'Press Ctrl-C to stop the workers, n8n, Redis, Postgres and the sandbox.' : 'Press Ctrl-C to stop n8n and the sandbox.');
}

/** Ctrl-C (or n8n exiting on its own) stops everything this script started, each once. */
function stopOnSignals({ n8n, sandbox, cluster }) {
	let stopping = false;
	const stopAll = async (reason, exitCode) => {
		if (stopping) return;
		stopping = true;
		say(`\n${reason}: stopping ${cluster ? 'the workers, n8n, Redis, Postgres' : 'n8n'} and the sandbox...`);
		if (cluster) await cluster.stop();
		else await n8n.stop();
		await sandbox.close();
		process.exit(exitCode);
	};
	process.on('SIGINT', () => void stopAll('Ctrl-C', 0));
	process.on('SIGTERM', () => void stopAll('SIGTERM', 0));
	n8n.child.once('exit', (code) => void stopAll(`n8n exited (code ${code})`, code || 1));
	for (const worker of cluster?.workers ?? []) {
		worker.child.once('exit', (code) => void stopAll(`${worker.name} exited (code ${code})`, code || 1));
	}
}

/** Without n8n's database, the markers of what was imported describe nothing: start over. */
function forgetImportsIfDatabaseIsGone() {
	if (fs.existsSync(DATABASE_FILE)) return;
	fs.rmSync(TOKENS_FILE, { force: true });
	fs.rmSync(SANDBOX_STATE_FILE, { force: true });
	fs.rmSync(WEBHOOK_SECRET_FILE, { force: true });
	fs.rmSync(N8N_API_KEY_FILE, { force: true });
	fs.rmSync(IMPORTED_EXAMPLES_FILE, { force: true });
}

async function main() {
	const started = Date.now();
	await checkPortsAreFree();
	buildPackage();
	await ensureN8nInstalled(RUNTIME);
	if (QUEUE) await ensureDebianPackages(['redis-server', 'postgresql']);
	keepSecretFolder(USER_FOLDER, [TOKENS_FILE, SANDBOX_STATE_FILE, WEBHOOK_SECRET_FILE, N8N_API_KEY_FILE]);
	forgetImportsIfDatabaseIsGone();
	const { tokens, newCompanyIds } = demoTokens();
	const webhookSecret = demoWebhookSecret();
	step(`Starting the sandbox on 127.0.0.1:${PORTS.sandbox}${RATE_LIMIT ? ', with the rate limit of the service' : ''}`);
	const sandbox = await startSandbox({
		port: PORTS.sandbox,
		initialTokens: tokens,
		stateFile: SANDBOX_STATE_FILE,
		rateLimits: { enabled: RATE_LIMIT },
	});
	let n8n = null;
	let cluster = null;
	try {
		await ensurePayrollCompleted(sandbox, 'FR1001', lastMonth());
		const tarball = packTarball();
		let cli;
		let env;
		if (QUEUE) {
			step(`Starting Redis (127.0.0.1:${QUEUE_PORTS.redis}) and Postgres (127.0.0.1:${QUEUE_PORTS.postgres}) in ${path.relative(repoRoot, QUEUE_FOLDER)}/`);
			cluster = await createQueueCluster({ dataDir: QUEUE_FOLDER, tarball, runtime: RUNTIME, ports: QUEUE_PORTS, workers: 2 });
			step('Package installed into the main instance and both workers');
			cli = cluster.cli;
		} else {
			step('Installing the package into n8n as a community package');
			installPackageInto(USER_FOLDER, tarball);
			env = n8nEnv({
				userFolder: USER_FOLDER,
				port: PORTS.n8n,
				brokerPort: PORTS.taskBroker,
				runtime: RUNTIME,
			});
			cli = new N8nCli(env, RUNTIME);
		}
		const tokenOf = (companyId) => tokens.find((token) => token.companyId === companyId).token;
		const n8nUrl = `http://127.0.0.1:${PORTS.n8n}`;
		// The n8n API key exists once n8n runs with an owner: a new folder imports the credential without it.
		const credentials = exampleCredentials(sandbox, tokenOf, {
			webhookSigningSecret: webhookSecret.signingSecret,
			n8nUrl,
			n8nApiKey: keptApiKey(N8N_API_KEY_FILE),
		});
		// Made now: the tokens of companies new to the tokens file (the partner credential holds them all), the
		// webhook examples' signing secret.
		const renewedIds = [
			...newCompanyIds.map(tokenCredentialId),
			...(newCompanyIds.length > 0 ? [ALL_COMPANIES_CREDENTIAL.id] : []),
			...(webhookSecret.fresh ? [DEMO_WEBHOOK.credential.id] : []),
		];
		const { imported, present: n8nCredentials } = await importMissingCredentials(cli, credentials, { renewedIds });
		if (imported.length > 0) step(`Imported credential(s) connected to the sandbox: ${imported.map(({ name }) => name).join(', ')}`);
		// As a partner does in the provider's portal: the endpoint is the example's production URL.
		for (const url of [demoWebhookUrl, partnerDemoWebhookUrl].map((urlOf) => urlOf(n8nUrl))) {
			await ensureDemoEndpoint(sandbox, { url, secret: webhookSecret.signingSecret });
		}
		const examples = await importExamples(cli, { importedIdsFile: IMPORTED_EXAMPLES_FILE, reset: RESET_EXAMPLES });
		if (RESET_EXAMPLES) {
			step(`--reset-examples: restored the ${examples.length} example workflows as shipped, over your changes to them:`);
			for (const workflow of examples) say(`   ${workflow.name}`);
		} else if (examples.length > 0) {
			step(`Imported ${examples.length} example workflow(s)`);
		}
		step(`Starting n8n ${installedN8nVersion(RUNTIME)} on 127.0.0.1:${PORTS.n8n}${QUEUE ? ', then 2 workers' : ''}`);
		if (QUEUE) {
			await cluster.startAll();
			n8n = { url: cluster.url, logFile: cluster.main.logFile, child: cluster.main.child };
		} else {
			n8n = await startN8n(env, { logFile: path.join(USER_FOLDER, 'n8n.log'), runtime: RUNTIME });
		}
		stopOnSignals({ n8n, sandbox, cluster });
		const rest = new N8nRest(n8n.url);
		const owner = await rest.ensureOwner();
		const { connectLink, newApiKey } = await ensureConnectLink({ rest, n8nUrl, sandbox, apiKeyFile: N8N_API_KEY_FILE });
		if (newApiKey) step(`Created the owner's n8n API key "${PARTNER_CONNECT_DEMO.apiKeyLabel}" for "${PARTNER_CONNECT_DEMO.n8nApiCredential.name}"`);
		printWelcome({ n8n, owner, sandbox, n8nCredentials, cluster, connectLink });
		say(`(ready in ${Math.round((Date.now() - started) / 1000)} s)`);
	} catch (error) {
		if (cluster) await cluster.stop();
		else if (n8n) await n8n.stop();
		await sandbox.close();
		throw error;
	}
}

main().catch((error) => {
	console.error(`\nnpm start failed: ${error.message}`);
	process.exit(1);
});
