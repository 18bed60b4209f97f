'use strict';
// Install an n8n of the matrix (runtimes.js) from its committed recipe into its own folder, once; again
// only when the recipe changes.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { n8nRuntime } = require('./runtimes');
const { repoRoot } = require('./paths');

const RECIPE_FILES = ['package.json', 'package-lock.json', '.npmrc'];
const INSTALL_TIMEOUT_MS = 30 * 60_000;
const PROGRESS_EVERY_MS = 30_000;
// --loglevel=http: one log line per package download, which the progress line counts.
const INSTALL_FLAGS = ['--no-audit', '--no-fund', '--loglevel=http'];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const stampFile = (runtime) => path.join(runtime.installDir, 'installed-recipe.sha256');
const installLog = (runtime) => path.join(runtime.installDir, 'install.log');
const lockDir = (runtime) => path.join(runtime.installDir, '.install-lock');
// sqlite3 as npm installs it into `folder`, and its binding, which the default database needs. Install
// scripts are off, so the binding comes from sharedSqliteBinding.
const sqlitePackageIn = (folder) => path.join(folder, 'node_modules', 'sqlite3');
const sqliteBindingIn = (folder) => path.join(sqlitePackageIn(folder), 'build', 'Release', 'node_sqlite3.node');
// sqlite3's binding uses Node-API only (napi_build_version 9): built once with the machine's Node.js, the
// oldest of the matrix, it loads in every runtime's Node.js (built against Node.js 24's headers, it crashes
// Node.js 20). One build per sqlite3 version, kept here (a hidden folder, like the install folders).
const sharedSqliteDir = path.join(repoRoot, '.n8n-sqlite3');

function recipeHash(runtime) {
	const hash = crypto.createHash('sha256');
	for (const name of RECIPE_FILES) hash.update(fs.readFileSync(path.join(runtime.recipeDir, name)));
	return hash.digest('hex');
}

function isN8nInstalled(runtime = n8nRuntime()) {
	const stamp = stampFile(runtime);
	return fs.existsSync(runtime.n8nBin) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === recipeHash(runtime);
}

/**
 * Run from `npm start` or `npm test`, this process inherits npm's settings of the package as
 * environment variables: ignore-scripts=true (root .npmrc) and the package root as local prefix,
 * which would install n8n into the package itself.
 */
function npmEnvOfItsOwn() {
	const env = { ...process.env };
	for (const key of Object.keys(env)) {
		if (/^npm_(config_ignore_scripts|config_local_prefix|package_|lifecycle_)/i.test(key)) delete env[key];
	}
	return env;
}

/** The recipe's lock file, parsed. */
function recipeLock(runtime) {
	return JSON.parse(fs.readFileSync(path.join(runtime.recipeDir, 'package-lock.json'), 'utf8'));
}

/** How many packages the recipe's lock file lists (optional ones for other platforms included). */
function packagesInRecipe(runtime) {
	return Object.keys(recipeLock(runtime).packages ?? {}).filter((key) => key.includes('node_modules/')).length;
}

/** How many package downloads npm has logged so far (with --loglevel=http npm logs one line per tarball, fetched or from its cache). */
function packagesFetched(runtime) {
	if (!fs.existsSync(installLog(runtime))) return 0;
	// A tarball can be logged twice (from the cache, then fetched): each one is counted once.
	const tarballs = fs.readFileSync(installLog(runtime), 'utf8').matchAll(/^npm http (?:fetch GET 200|cache) \S*?(https?:\S+\.tgz)/gm);
	return new Set([...tarballs].map((match) => match[1])).size;
}

/** A line every PROGRESS_EVERY_MS while `work` runs, so a long install never looks stuck. */
async function withProgress(runtime, log, work) {
	const started = Date.now();
	const total = packagesInRecipe(runtime);
	const timer = setInterval(() => {
		const seconds = Math.round((Date.now() - started) / 1000);
		log(`... still installing n8n ${runtime.n8nVersion}: ${seconds} s, ${packagesFetched(runtime)} of about ${total} packages fetched`);
	}, PROGRESS_EVERY_MS);
	try {
		return await work();
	} finally {
		clearInterval(timer);
	}
}

/** The last lines of the install log, for an error message. */
function logTail(runtime, lines = 30) {
	const text = fs.existsSync(installLog(runtime)) ? fs.readFileSync(installLog(runtime), 'utf8') : '';
	return text.split('\n').slice(-lines).join('\n');
}

/** npm in `folder` (which has its own package.json), its output to `stdio`. */
function runNpm(folder, args, stdio) {
	return new Promise((resolve, reject) => {
		const child = spawn('npm', args, { cwd: folder, env: npmEnvOfItsOwn(), stdio: ['ignore', stdio, stdio] });
		const timer = setTimeout(() => child.kill('SIGKILL'), INSTALL_TIMEOUT_MS);
		child.once('error', reject);
		child.once('exit', (code, signal) => {
			clearTimeout(timer);
			if (code === 0) resolve();
			else reject(new Error(`npm ${args.join(' ')} in ${folder} failed (${signal ?? `exit code ${code}`})`));
		});
	});
}

/**
 * `work` alone among the lab's processes that take the same `lock` (a folder): parallel test files may all
 * find n8n missing (one installs, the others wait for it), and both runtimes may need sqlite3's binding.
 */
async function withLock(lock, work) {
	fs.mkdirSync(path.dirname(lock), { recursive: true });
	for (;;) {
		try {
			fs.mkdirSync(lock);
			break;
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
			// The holder may remove the lock between the two calls: then it is 0 ms old, and the next turn takes it.
			const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
			if (age > INSTALL_TIMEOUT_MS) fs.rmSync(lock, { recursive: true, force: true });
			else await sleep(2_000);
		}
	}
	try {
		return await work();
	} finally {
		fs.rmSync(lock, { recursive: true, force: true });
	}
}

/** The sqlite3 version of `runtime`'s recipe (its lock file). */
function recipeSqliteVersion(runtime) {
	return recipeLock(runtime).packages['node_modules/sqlite3'].version;
}

/**
 * The shared binding of sqlite3 `version`, built when missing by `npm install sqlite3@<version>` in a folder of
 * its own (its install script runs node-gyp: about 150 s of one core). It runs beside the runtimes' own npm
 * installs instead of after them; one build among all the lab's processes (a lock), the others wait for it.
 * Resolves the binding's path.
 */
async function sharedSqliteBinding(version, logFd) {
	const shared = path.join(sharedSqliteDir, version, 'node_sqlite3.node');
	await withLock(path.join(sharedSqliteDir, '.build-lock'), async () => {
		if (fs.existsSync(shared)) return;
		const buildDir = path.join(sharedSqliteDir, `build-${version}`);
		fs.rmSync(buildDir, { recursive: true, force: true });
		fs.mkdirSync(buildDir, { recursive: true });
		// Its own package.json, or npm would install into the nearest folder above that has one: the repository.
		fs.writeFileSync(path.join(buildDir, 'package.json'), '{ "name": "sqlite3-binding-build", "private": true }\n');
		const args = ['install', `sqlite3@${version}`, '--no-save', '--no-package-lock', ...INSTALL_FLAGS, '--ignore-scripts=false'];
		await runNpm(buildDir, args, logFd);
		// Copied under another name first, so a process that finds `shared` never reads half a file.
		fs.mkdirSync(path.dirname(shared), { recursive: true });
		fs.copyFileSync(sqliteBindingIn(buildDir), `${shared}.partial`);
		fs.renameSync(`${shared}.partial`, shared);
		fs.rmSync(buildDir, { recursive: true, force: true });
	});
	return shared;
}

/** Copies the shared `binding` into `runtime`'s install, which its own Node.js must then load. */
function placeSqliteBinding(runtime, binding) {
	const placed = sqliteBindingIn(runtime.installDir);
	fs.mkdirSync(path.dirname(placed), { recursive: true });
	fs.copyFileSync(binding, placed);
	const check = `new (require(${JSON.stringify(sqlitePackageIn(runtime.installDir))}).Database)(':memory:').close()`;
	const loaded = spawnSync('node', ['-e', check], { env: { ...process.env, ...runtime.pathEnv() }, encoding: 'utf8' });
	if (loaded.status !== 0) {
		throw new Error(
			`n8n ${runtime.n8nVersion}'s Node.js ${runtime.nodeVersion} cannot load sqlite3's binding (${binding}; ` +
				`${loaded.signal ?? `exit code ${loaded.status}`}): ${loaded.stderr.match(/^\w*Error: .*$/m)?.[0] ?? loaded.stderr.trim()}`,
		);
	}
}

/**
 * Install `runtime` when it is missing or its recipe changed. `npm install` with the committed lock file,
 * not `npm ci`: the registry mirror here refuses `npm ci` for lock files made here (platform-specific
 * optional packages are missing from them). Install scripts are off (a Kafka client's native build fails
 * here, and the others build optional speed-ups: ssh2's crypto, cpu-features); sqlite3's binding, the only
 * one n8n needs, is built meanwhile (sharedSqliteBinding).
 * npm's output goes to <install folder>/install.log, not to the terminal: installing an n8n made for Node.js 24
 * with the npm of Node.js 20 prints hundreds of expected warnings (EBADENGINE, ERESOLVE). A progress line
 * comes every 30 s instead, and a failure shows the log's tail. Resolves whether it installed.
 */
async function ensureN8nInstalled(runtime = n8nRuntime(), { log = console.log } = {}) {
	if (isN8nInstalled(runtime)) return false;
	return withLock(lockDir(runtime), async () => {
		if (isN8nInstalled(runtime)) return false; // installed by whoever held the lock
		log(`Installing n8n ${runtime.n8nVersion} into ${runtime.installDir} (5 to 10 minutes the first time).`);
		log(`npm's output goes to ${installLog(runtime)}; its many EBADENGINE and ERESOLVE warnings there are expected.`);
		const started = Date.now();
		fs.rmSync(stampFile(runtime), { force: true });
		for (const name of RECIPE_FILES) {
			fs.copyFileSync(path.join(runtime.recipeDir, name), path.join(runtime.installDir, name));
		}
		const logFd = fs.openSync(installLog(runtime), 'w');
		try {
			await withProgress(runtime, log, async () => {
				// Both to their end, also when one fails: a build cut short would leave its lock behind.
				const [installed, built] = await Promise.allSettled([
					runNpm(runtime.installDir, ['install', ...INSTALL_FLAGS, '--ignore-scripts'], logFd),
					sharedSqliteBinding(recipeSqliteVersion(runtime), logFd),
				]);
				for (const result of [installed, built]) if (result.status === 'rejected') throw result.reason;
				placeSqliteBinding(runtime, built.value);
			});
			if (!fs.existsSync(runtime.n8nBin)) throw new Error(`npm install did not create ${runtime.n8nBin}`);
		} catch (error) {
			throw new Error(`${error.message}\n--- ${installLog(runtime)} (end) ---\n${logTail(runtime)}`);
		} finally {
			fs.closeSync(logFd);
		}
		fs.writeFileSync(stampFile(runtime), `${recipeHash(runtime)}\n`);
		log(`n8n ${installedN8nVersion(runtime)} installed in ${Math.round((Date.now() - started) / 1000)} s.`);
		return true;
	});
}

function installedN8nVersion(runtime = n8nRuntime()) {
	const manifest = path.join(runtime.installDir, 'node_modules', 'n8n', 'package.json');
	return JSON.parse(fs.readFileSync(manifest, 'utf8')).version;
}

module.exports = { isN8nInstalled, ensureN8nInstalled, installedN8nVersion, sharedSqliteBinding };
