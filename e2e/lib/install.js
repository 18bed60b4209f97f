'use strict';
// Install the pinned n8n (recipe in e2e/n8n) into .n8n-runtime, once; again only when the recipe changes.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { n8nRecipeDir, n8nInstallDir, n8nBin } = require('./paths');

const RECIPE_FILES = ['package.json', 'package-lock.json', '.npmrc'];
const STAMP_FILE = path.join(n8nInstallDir, 'installed-recipe.sha256');
const INSTALL_TIMEOUT_MS = 30 * 60_000;

function recipeHash() {
	const hash = crypto.createHash('sha256');
	for (const name of RECIPE_FILES) hash.update(fs.readFileSync(path.join(n8nRecipeDir, name)));
	return hash.digest('hex');
}

function isN8nInstalled() {
	return (
		fs.existsSync(n8nBin) &&
		fs.existsSync(STAMP_FILE) &&
		fs.readFileSync(STAMP_FILE, 'utf8').trim() === recipeHash()
	);
}

/**
 * Install n8n when it is missing or its recipe changed. `npm install` with the committed lock file,
 * not `npm ci`: the registry mirror here refuses `npm ci` for lock files made here (platform-specific
 * optional packages are missing from them). Install scripts are on (see e2e/n8n/.npmrc).
 * `stdio` is 'inherit' for a person watching, or a file descriptor for a log. Returns whether it installed.
 */
function ensureN8nInstalled({ stdio = 'inherit', log = console.log } = {}) {
	if (isN8nInstalled()) return false;
	log(`Installing the pinned n8n into ${n8nInstallDir} (about 5 minutes the first time)...`);
	const started = Date.now();
	fs.mkdirSync(n8nInstallDir, { recursive: true });
	fs.rmSync(STAMP_FILE, { force: true });
	for (const name of RECIPE_FILES) {
		fs.copyFileSync(path.join(n8nRecipeDir, name), path.join(n8nInstallDir, name));
	}
	const result = spawnSync('npm', ['install', '--no-audit', '--no-fund'], {
		cwd: n8nInstallDir,
		stdio: ['ignore', stdio, stdio],
		timeout: INSTALL_TIMEOUT_MS,
	});
	if (result.status !== 0 || !fs.existsSync(n8nBin)) {
		throw new Error(`npm install in ${n8nInstallDir} failed (status ${result.status}, ${result.error ?? 'no error'})`);
	}
	fs.writeFileSync(STAMP_FILE, `${recipeHash()}\n`);
	log(`n8n ${installedN8nVersion()} installed in ${Math.round((Date.now() - started) / 1000)} s.`);
	return true;
}

function installedN8nVersion() {
	const manifest = path.join(n8nInstallDir, 'node_modules', 'n8n', 'package.json');
	return JSON.parse(fs.readFileSync(manifest, 'utf8')).version;
}

module.exports = { isN8nInstalled, ensureN8nInstalled, installedN8nVersion };
