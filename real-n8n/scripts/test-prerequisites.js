#!/usr/bin/env node
'use strict';
// First step of the lab's tests (`npm run test:n8n`): everything the real-n8n suites need beyond
// `npm install`, installed when missing, so that the command works on a fresh machine by itself.
// - Debian packages: chromium (editor and OAuth2 tests), redis-server and postgresql (queue mode), with
//   apt-get as root; otherwise it stops at once with the one command to run.
// - Every n8n version of the matrix (real-n8n/lib/runtimes.js), from its committed recipe, side by side (each
//   logs to <install folder>/install.log); nothing to do when already installed.
// - A database migrated by each of them, which every new user folder of the lab starts from
//   (lib/migrated-database.js).
const { RUNTIMES, ensureDebianPackages, ensureMigratedDatabase, ensureN8nInstalled, isN8nInstalled } = require('../lib');

const DEBIAN_PACKAGES = ['chromium', 'redis-server', 'postgresql'];

function installN8n(runtime) {
	return ensureN8nInstalled(runtime, { log: (message) => console.log(`[n8n ${runtime.n8nVersion}] ${message}`) });
}

async function main() {
	const started = Date.now();
	try {
		ensureDebianPackages(DEBIAN_PACKAGES, { log: (message) => console.log(`[debian] ${message}`) });
	} catch (error) {
		console.error(`\nThe lab's tests need more than npm install: ${error.message}\n`);
		process.exit(1);
	}
	const missing = RUNTIMES.filter((runtime) => !isN8nInstalled(runtime));
	await Promise.all(missing.map(installN8n));
	for (const runtime of RUNTIMES) await ensureMigratedDatabase(runtime);
	const seconds = Math.round((Date.now() - started) / 1000);
	const versions = RUNTIMES.map((runtime) => `n8n ${runtime.n8nVersion} on Node.js ${runtime.nodeVersion}`).join(', ');
	console.log(`Test prerequisites ready (${versions}; ${seconds} s).`);
}

main().catch((error) => {
	console.error(`\nInstalling the test prerequisites failed: ${error.message}`);
	process.exit(1);
});
