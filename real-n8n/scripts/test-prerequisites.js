#!/usr/bin/env node
'use strict';
// First step of the lab's tests (`npm run test:n8n`): everything the real-n8n suites need beyond
// `npm install`, installed when missing, so that the command works on a fresh machine by itself.
// - Debian packages: chromium (editor and OAuth2 tests), redis-server and postgresql (queue mode), with
//   apt-get as root; otherwise it stops at once with the one command to run.
// - Every n8n version of the matrix (real-n8n/lib/runtimes.js), from its committed recipe (each logs to
//   <install folder>/install.log); nothing to do when already installed.
// - A database migrated by each of them, which every new user folder of the lab starts from
//   (lib/migrated-database.js).
// All side by side: each n8n install, then its migrated database, and the Debian packages.
const { RUNTIMES, ensureDebianPackages, ensureMigratedDatabase, ensureN8nInstalled } = require('../lib');

const DEBIAN_PACKAGES = ['chromium', 'redis-server', 'postgresql'];

function installN8n(runtime) {
	return ensureN8nInstalled(runtime, { log: (message) => console.log(`[n8n ${runtime.n8nVersion}] ${message}`) });
}

/** The Debian packages' install, started; when they cannot be installed (not root), stop before anything starts. */
function startDebianPackages() {
	try {
		return ensureDebianPackages(DEBIAN_PACKAGES, { log: (message) => console.log(`[debian] ${message}`) });
	} catch (error) {
		console.error(`\nThe lab's tests need more than npm install: ${error.message}\n`);
		process.exit(1);
	}
}

async function n8nWithItsDatabase(runtime) {
	await installN8n(runtime);
	await ensureMigratedDatabase(runtime);
}

async function main() {
	const started = Date.now();
	// Every step runs to its end, also when another one fails: an n8n install stopped halfway would leave its
	// lock behind.
	const results = await Promise.allSettled([startDebianPackages(), ...RUNTIMES.map(n8nWithItsDatabase)]);
	const failures = results.filter((result) => result.status === 'rejected').map((result) => result.reason);
	if (failures.length > 0) throw new Error(failures.map((error) => error.message).join('\n'));
	const seconds = Math.round((Date.now() - started) / 1000);
	const versions = RUNTIMES.map((runtime) => `n8n ${runtime.n8nVersion} on Node.js ${runtime.nodeVersion}`).join(', ');
	console.log(`Test prerequisites ready (${versions}; ${seconds} s).`);
}

main().catch((error) => {
	console.error(`\nInstalling the test prerequisites failed: ${error.message}`);
	process.exit(1);
});
