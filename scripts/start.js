#!/usr/bin/env node
'use strict';
// `npm start`: a local n8n 2.8.4 with this package installed as a community package, connected to the
// Partner Payroll sandbox, with ready credentials and example workflows. Ctrl-C stops everything.
//
// The n8n user folder is .n8n-demo/ (kept between runs: owner account, your workflows and executions).
// Every run rebuilds, re-packs and re-installs the package, so code changes are picked up.

const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawnSync } = require('node:child_process');
const { startSandbox } = require('../sandbox/server');
const {
	repoRoot,
	examplesDir,
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
	TOKEN_CREDENTIALS,
	exampleCredentials,
	lastMonth,
	ensurePayrollCompleted,
} = require('../e2e/lib');

const PORTS = { sandbox: 4010, n8n: 5678, taskBroker: 5679 };
const USER_FOLDER = path.join(repoRoot, '.n8n-demo');
const IMPORTED_EXAMPLES_FILE = path.join(USER_FOLDER, 'imported-examples.json');
const TOKENS_FILE = path.join(USER_FOLDER, 'sandbox-tokens.json');
const DATABASE_FILE = path.join(USER_FOLDER, '.n8n', 'database.sqlite');

const say = (message = '') => console.log(message);
const step = (message) => console.log(`» ${message}`);

function buildPackage() {
	step('Building the package (npm run build)');
	const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: repoRoot, stdio: 'inherit' });
	if (result.status !== 0) throw new Error('npm run build failed');
}

async function checkPortsAreFree() {
	for (const [what, port] of Object.entries(PORTS)) {
		if (await isPortInUse(port)) {
			throw new Error(`Port ${port} (${what}) is already in use on 127.0.0.1: is another "npm start" running?`);
		}
	}
}

function installPackage() {
	step('Packing the package and installing it into n8n as a community package');
	const tarball = packPackage(path.join(USER_FOLDER, 'package-tarball'));
	installPackageInto(USER_FOLDER, tarball);
}

/**
 * Sandbox tokens (company API keys, kind apiKey) are made once and kept in the user folder; the sandbox
 * gets them back at every start (it keeps tokens in memory only), so the imported credentials stay valid.
 * Company API keys are not replaced when someone connects the OAuth2 credential to the same company.
 */
function demoTokens() {
	if (fs.existsSync(TOKENS_FILE)) return { tokens: JSON.parse(fs.readFileSync(TOKENS_FILE, 'utf8')), fresh: false };
	const tokens = TOKEN_CREDENTIALS.map(({ companyId }) => ({
		token: `sbx_demo_${crypto.randomBytes(18).toString('base64url')}`,
		companyId,
		scopes: [...ALL_SCOPES],
		kind: 'apiKey',
	}));
	fs.writeFileSync(TOKENS_FILE, `${JSON.stringify(tokens, null, 2)}\n`, { mode: 0o600 });
	return { tokens, fresh: true };
}

/** Examples are imported once, so that your changes to them survive the next start. */
async function importExamplesOnce(cli) {
	const imported = fs.existsSync(IMPORTED_EXAMPLES_FILE)
		? JSON.parse(fs.readFileSync(IMPORTED_EXAMPLES_FILE, 'utf8'))
		: [];
	const examples = fs
		.readdirSync(examplesDir)
		.filter((file) => file.endsWith('.json'))
		.map((file) => JSON.parse(fs.readFileSync(path.join(examplesDir, file), 'utf8')))
		.filter((workflow) => !imported.includes(workflow.id));
	if (examples.length === 0) return [];
	step(`Importing ${examples.length} example workflow(s)`);
	await cli.importWorkflows(examples);
	const ids = [...imported, ...examples.map((workflow) => workflow.id)];
	fs.writeFileSync(IMPORTED_EXAMPLES_FILE, `${JSON.stringify(ids, null, 2)}\n`);
	return examples;
}

function printWelcome({ n8n, owner, sandbox, credentials }) {
	say();
	say('n8n is running with the Partner Payroll nodes installed.');
	say();
	// Not localhost: the OAuth2 redirect address registered at the sandbox is the 127.0.0.1 one.
	say(`  Editor:    ${n8n.url}/   (use this address, not localhost, for the OAuth2 Connect)`);
	say(`  Log in:    ${owner.email}   password: ${owner.password}`);
	say(`  Workflows: the "Example: ..." workflows; open one and click "Execute workflow".`);
	say(`  Credentials (already set up):`);
	for (const credential of credentials) say(`    - ${credential.name}`);
	say(`    The OAuth2 one needs "Connect my account" (the sandbox's consent page), again after each`);
	say(`    start: the sandbox keeps the tokens it issues in memory only.`);
	say(`  Sandbox:   API ${sandbox.apiBaseUrl}   control ${sandbox.url}/_sandbox`);
	say(`  n8n log:   ${path.relative(repoRoot, n8n.logFile)}`);
	say();
	say('Press Ctrl-C to stop n8n and the sandbox.');
}

/** Ctrl-C (or n8n exiting on its own) stops both processes, each once. */
function stopOnSignals({ n8n, sandbox }) {
	let stopping = false;
	const stopAll = async (reason, exitCode) => {
		if (stopping) return;
		stopping = true;
		say(`\n${reason}: stopping n8n and the sandbox...`);
		await n8n.stop();
		await sandbox.close();
		process.exit(exitCode);
	};
	process.on('SIGINT', () => void stopAll('Ctrl-C', 0));
	process.on('SIGTERM', () => void stopAll('SIGTERM', 0));
	n8n.child.once('exit', (code) => void stopAll(`n8n exited (code ${code})`, code || 1));
}

/** Without n8n's database, the markers of what was imported describe nothing: start over. */
function forgetImportsIfDatabaseIsGone() {
	if (fs.existsSync(DATABASE_FILE)) return;
	fs.rmSync(TOKENS_FILE, { force: true });
	fs.rmSync(IMPORTED_EXAMPLES_FILE, { force: true });
}

async function main() {
	const started = Date.now();
	await checkPortsAreFree();
	buildPackage();
	await ensureN8nInstalled();
	fs.mkdirSync(USER_FOLDER, { recursive: true });
	forgetImportsIfDatabaseIsGone();
	const { tokens, fresh } = demoTokens();
	step(`Starting the sandbox on 127.0.0.1:${PORTS.sandbox}`);
	const sandbox = await startSandbox({ port: PORTS.sandbox, initialTokens: tokens });
	let n8n = null;
	try {
		await ensurePayrollCompleted(sandbox, 'FR1001', lastMonth());
		installPackage();
		const env = n8nEnv({ userFolder: USER_FOLDER, port: PORTS.n8n, brokerPort: PORTS.taskBroker });
		const cli = new N8nCli(env);
		const tokenOf = (companyId) => tokens.find((token) => token.companyId === companyId).token;
		const credentials = exampleCredentials(sandbox, tokenOf);
		if (fresh) {
			step('Importing credentials connected to the sandbox');
			await cli.importCredentials(credentials);
		}
		await importExamplesOnce(cli);
		step(`Starting n8n ${installedN8nVersion()} on 127.0.0.1:${PORTS.n8n}`);
		n8n = await startN8n(env, { logFile: path.join(USER_FOLDER, 'n8n.log') });
		stopOnSignals({ n8n, sandbox });
		const owner = await new N8nRest(n8n.url).ensureOwner();
		printWelcome({ n8n, owner, sandbox, credentials });
		say(`(ready in ${Math.round((Date.now() - started) / 1000)} s)`);
	} catch (error) {
		if (n8n) await n8n.stop();
		await sandbox.close();
		throw error;
	}
}

main().catch((error) => {
	console.error(`\nnpm start failed: ${error.message}`);
	process.exit(1);
});
