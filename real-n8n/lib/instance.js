'use strict';
// A throwaway n8n instance for a test: its own temporary user folder and ports, the package installed
// from a fresh `npm pack` of dist/, a CLI bound to it, and `n8n start` on demand.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { repoRoot } = require('./paths');
const { packedBuild, installPackageInto } = require('./community-package');
const { n8nEnv } = require('./env');
const { N8nCli } = require('./cli');
const { startN8n } = require('./server');
const { freePort } = require('./ports');
const { n8nRuntime } = require('./runtimes');
const { seedMigratedDatabase } = require('./migrated-database');

function assertBuilt() {
	const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
	const missing = [...manifest.n8n.nodes, ...manifest.n8n.credentials].filter(
		(file) => !fs.existsSync(path.join(repoRoot, file)),
	);
	if (missing.length > 0) throw new Error(`Build the package first (npm run build); missing: ${missing.join(', ')}`);
}

/**
 * `runtime`: the n8n version of the matrix (runtimes.js); by default the one E2E_N8N selects.
 * `extraEnv`: added to the environment of this instance's n8n processes only (not of npm pack).
 */
async function createInstance({ prefix = 'n8n-e2e-', runtime = n8nRuntime(), extraEnv = {} } = {}) {
	assertBuilt();
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	seedMigratedDatabase(userFolder, runtime);
	const tarball = packedBuild();
	installPackageInto(userFolder, tarball);
	const [port, serverBrokerPort, cliBrokerPort] = [await freePort(), await freePort(), await freePort()];
	const serverEnv = n8nEnv({ userFolder, port, brokerPort: serverBrokerPort, runtime, extra: extraEnv });
	// CLI commands may run next to `n8n start`: every n8n process opens its own task broker.
	const cli = new N8nCli({ ...serverEnv, N8N_RUNNERS_BROKER_PORT: String(cliBrokerPort) }, runtime);
	let server = null;
	// A start still under way (a restart when a test times out): stop() waits for it, so no n8n outlives the test.
	let starting = null;

	return {
		runtime,
		userFolder,
		tarball,
		port,
		url: `http://127.0.0.1:${port}`,
		cli,
		async start() {
			starting = startN8n(serverEnv, { runtime });
			try {
				server = await starting;
			} finally {
				starting = null;
			}
			return server;
		},
		/** `graceMs`: how long n8n may take to stop before it is killed (for example to finish its executions). */
		async stop(graceMs) {
			await starting?.catch(() => {});
			if (server) await server.stop(graceMs);
			server = null;
		},
		/** Stop the server and delete the user folder, unless E2E_KEEP_USER_FOLDERS is set (debugging). */
		async dispose() {
			await this.stop();
			if (!process.env.E2E_KEEP_USER_FOLDERS) fs.rmSync(userFolder, { recursive: true, force: true });
		},
	};
}

module.exports = { createInstance };
