#!/usr/bin/env node
'use strict';
// Installs the n8n versions that `npm start` and the end-to-end tests run (recipes in real-n8n/n8n-newest and
// real-n8n/n8n, see real-n8n/lib/runtimes.js), each into its own folder. Does nothing for a version already
// installed from its current recipe. `--n8n=<version|newest|pinned>` installs one version only.
const { RUNTIMES, runtimeFromArgs, ensureN8nInstalled, installedN8nVersion } = require('../lib');

async function main() {
	const wanted = process.argv.slice(2).some((arg) => arg.startsWith('--n8n')) ? [runtimeFromArgs()] : RUNTIMES;
	for (const runtime of wanted) {
		const installed = await ensureN8nInstalled(runtime);
		if (!installed) console.log(`n8n ${installedN8nVersion(runtime)} is already installed (${runtime.installDir}).`);
	}
}

main().catch((error) => {
	console.error(error.message);
	process.exit(1);
});
