#!/usr/bin/env node
'use strict';
// Installs the pinned n8n that `npm start` and the end-to-end tests run (recipe in e2e/n8n, installed
// into .n8n-runtime). Does nothing when it is already installed from the current recipe.
const { ensureN8nInstalled, installedN8nVersion } = require('../e2e/lib');

ensureN8nInstalled()
	.then((installed) => {
		if (!installed) console.log(`n8n ${installedN8nVersion()} is already installed.`);
	})
	.catch((error) => {
		console.error(error.message);
		process.exit(1);
	});
