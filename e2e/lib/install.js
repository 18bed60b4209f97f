'use strict';
// Install the pinned n8n (recipe in e2e/n8n) into .n8n-runtime, once; again only when the recipe changes.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { n8nRecipeDir, n8nInstallDir, n8nBin } = require('./paths');

const RECIPE_FILES = ['package.json', 'package-lock.json', '.npmrc'];
// Built by sqlite3's install script; missing when npm skipped install scripts.
const SQLITE_BINDING = path.join(n8nInstallDir, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');
const STAMP_FILE = path.join(n8nInstallDir, 'installed-recipe.sha256');
const LOCK_DIR = path.join(n8nInstallDir, '.install-lock');
const INSTALL_TIMEOUT_MS = 30 * 60_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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
 * Run from `npm start` or `npm test`, this process inherits npm's settings of the package as
 * environment variables: ignore-scripts=true (root .npmrc) and the package root as local prefix,
 * which would install n8n into the package itself without building sqlite3.
 */
function npmEnvForInstallDir() {
	const env = { ...process.env };
	for (const key of Object.keys(env)) {
		if (/^npm_(config_ignore_scripts|config_local_prefix|package_|lifecycle_)/i.test(key)) delete env[key];
	}
	return env;
}

function runNpmInstall(stdio) {
	return new Promise((resolve, reject) => {
		const child = spawn('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts=false'], {
			cwd: n8nInstallDir,
			env: npmEnvForInstallDir(),
			stdio: ['ignore', stdio, stdio],
		});
		const timer = setTimeout(() => child.kill('SIGKILL'), INSTALL_TIMEOUT_MS);
		child.once('error', reject);
		child.once('exit', (code, signal) => {
			clearTimeout(timer);
			resolve({ code, signal });
		});
	});
}

/** Parallel test files may all find n8n missing: one installs, the others wait for it. */
async function withInstallLock(work) {
	fs.mkdirSync(n8nInstallDir, { recursive: true });
	for (;;) {
		try {
			fs.mkdirSync(LOCK_DIR);
			break;
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
			const age = Date.now() - fs.statSync(LOCK_DIR).mtimeMs;
			if (age > INSTALL_TIMEOUT_MS) fs.rmSync(LOCK_DIR, { recursive: true, force: true });
			else await sleep(2_000);
		}
	}
	try {
		return await work();
	} finally {
		fs.rmSync(LOCK_DIR, { recursive: true, force: true });
	}
}

/**
 * Install n8n when it is missing or its recipe changed. `npm install` with the committed lock file,
 * not `npm ci`: the registry mirror here refuses `npm ci` for lock files made here (platform-specific
 * optional packages are missing from them). Install scripts must run: sqlite3 is built from source.
 * `stdio` is 'inherit' for a person watching, or a file descriptor for a log. Resolves whether it installed.
 */
async function ensureN8nInstalled({ stdio = 'inherit', log = console.log } = {}) {
	if (isN8nInstalled()) return false;
	return withInstallLock(async () => {
		if (isN8nInstalled()) return false; // installed by whoever held the lock
		log(`Installing the pinned n8n into ${n8nInstallDir} (about 5 minutes the first time)...`);
		const started = Date.now();
		fs.rmSync(STAMP_FILE, { force: true });
		for (const name of RECIPE_FILES) {
			fs.copyFileSync(path.join(n8nRecipeDir, name), path.join(n8nInstallDir, name));
		}
		const { code, signal } = await runNpmInstall(stdio);
		if (code !== 0 || !fs.existsSync(n8nBin)) {
			throw new Error(`npm install in ${n8nInstallDir} failed (${signal ?? `exit code ${code}`})`);
		}
		if (!fs.existsSync(SQLITE_BINDING)) {
			throw new Error(`sqlite3 was not built (${SQLITE_BINDING} is missing): were install scripts skipped?`);
		}
		fs.writeFileSync(STAMP_FILE, `${recipeHash()}\n`);
		log(`n8n ${installedN8nVersion()} installed in ${Math.round((Date.now() - started) / 1000)} s.`);
		return true;
	});
}

function installedN8nVersion() {
	const manifest = path.join(n8nInstallDir, 'node_modules', 'n8n', 'package.json');
	return JSON.parse(fs.readFileSync(manifest, 'utf8')).version;
}

module.exports = { isN8nInstalled, ensureN8nInstalled, installedN8nVersion };
