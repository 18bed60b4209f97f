'use strict';
// Redis and Postgres for n8n's queue mode, from Debian's packages, run as plain processes on their own
// loopback ports with their data in a folder the caller chooses: no system service is used or touched.
// Postgres refuses to run as root: as root, it runs as an unprivileged user created when missing.
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const { spawnToFile, stopProcessGroup } = require('./process');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const POSTGRES_USER = 'n8n-postgres'; // the system user Postgres runs as when we are root
const POSTGRES_ROLE = 'n8n'; // the database role n8n logs in with
const POSTGRES_PASSWORD = 'n8n-local-only';
const POSTGRES_DATABASE = 'n8n';
const READY_TIMEOUT_MS = 60_000;

// ---- Debian packages ---------------------------------------------------------------------------

const REDIS_SERVER = '/usr/bin/redis-server';

function postgresBinDir() {
	const root = '/usr/lib/postgresql';
	if (!fs.existsSync(root)) return null;
	const versions = fs
		.readdirSync(root)
		.filter((name) => fs.existsSync(path.join(root, name, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length > 0 ? path.join(root, versions[0], 'bin') : null;
}

/** Debian packages that are missing: `chromium`, `redis-server`, `postgresql` (by their programs). */
function missingDebianPackages(names) {
	const present = {
		chromium: () => fs.existsSync('/usr/bin/chromium'),
		'redis-server': () => fs.existsSync(REDIS_SERVER),
		postgresql: () => postgresBinDir() !== null,
	};
	return names.filter((name) => !present[name]());
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * Installs the missing packages with apt-get when this process may (root on a Debian machine); otherwise
 * throws at once, before starting anything, with the one command to run. Resolves once they are installed,
 * so that other work (the lab's n8n installs) can go on meanwhile. `log` reports what happens.
 */
function ensureDebianPackages(names, { log = console.log } = {}) {
	const missing = missingDebianPackages(names);
	if (missing.length === 0) return Promise.resolve([]);
	const command = `apt-get install -y ${missing.join(' ')}`;
	if (!isRoot() || !fs.existsSync('/usr/bin/apt-get')) {
		throw new Error(`Missing Debian packages: ${missing.join(', ')}. Run: sudo ${command}`);
	}
	return installDebianPackages(missing, command, log);
}

async function installDebianPackages(missing, command, log) {
	log(`Installing Debian packages: ${missing.join(' ')} (apt-get)...`);
	const started = Date.now();
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...missing]]) {
		if ((await aptGet(args, env)) !== 0) throw new Error(`apt-get ${args.join(' ')} failed; run: ${command}`);
	}
	const still = missingDebianPackages(missing);
	if (still.length > 0) throw new Error(`apt-get did not install ${still.join(', ')}`);
	log(`Installed ${missing.join(' ')} in ${Math.round((Date.now() - started) / 1000)} s.`);
	return missing;
}

/** apt-get with its output on this process's own; resolves its exit code (null when a signal ended it). */
function aptGet(args, env) {
	return new Promise((resolve, reject) => {
		const child = spawn('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env });
		child.once('error', reject);
		child.once('exit', (code) => resolve(code));
	});
}

// ---- readiness -----------------------------------------------------------------------------------

/** Sends `request` to 127.0.0.1:port and resolves the first answer (or null on any failure). */
function tcpExchange(port, request, timeoutMs = 2_000) {
	return new Promise((resolve) => {
		const socket = net.connect({ port, host: '127.0.0.1' });
		const done = (value) => {
			socket.destroy();
			resolve(value);
		};
		socket.setTimeout(timeoutMs, () => done(null));
		socket.once('error', () => done(null));
		socket.once('connect', () => socket.write(request));
		socket.once('data', (data) => done(data.toString('utf8')));
	});
}

async function waitUntil(what, check, { child, logFile, timeoutMs = READY_TIMEOUT_MS }) {
	let exited = null;
	child.once('exit', (code, signal) => (exited = { code, signal }));
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		const tail = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n') : '');
		if (exited) throw new Error(`${what} exited early (${JSON.stringify(exited)})\n${tail()}`);
		if (Date.now() > deadline) {
			await stopProcessGroup(child);
			throw new Error(`${what} was not ready within ${timeoutMs} ms\n${tail()}`);
		}
		await sleep(250);
	}
}

// ---- Redis ---------------------------------------------------------------------------------------

/** redis-server on 127.0.0.1:port, its files in `dir`, nothing saved to disk. Resolves {port, stop}. */
async function startRedis({ dir, port }) {
	fs.mkdirSync(dir, { recursive: true });
	const logFile = path.join(dir, 'redis.log');
	const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no'];
	const child = spawnToFile(REDIS_SERVER, args, { env: process.env, cwd: dir, logFile });
	await waitUntil('redis-server', async () => (await tcpExchange(port, 'PING\r\n')) === '+PONG\r\n', { child, logFile });
	return { port, logFile, child, stop: () => stopProcessGroup(child) };
}

// ---- Postgres ------------------------------------------------------------------------------------

function ensurePostgresUser() {
	if (spawnSync('id', ['-u', POSTGRES_USER], { stdio: 'ignore' }).status === 0) return;
	execFileSync('useradd', ['--system', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', POSTGRES_USER]);
}

/**
 * How to run a Postgres program: as ourselves, or (as root) as POSTGRES_USER through setpriv, which
 * execs in place, so the process we signal is Postgres itself.
 */
function postgresCommand(program, args) {
	const binary = path.join(postgresBinDir(), program);
	if (!isRoot()) return { command: binary, args };
	return {
		command: 'setpriv',
		args: [`--reuid=${POSTGRES_USER}`, `--regid=${POSTGRES_USER}`, '--init-groups', '--', binary, ...args],
	};
}

/** Every folder above `dir` must be enterable by the Postgres user. */
function checkReachable(dir) {
	if (!isRoot()) return;
	for (let current = path.dirname(dir); current !== path.dirname(current); current = path.dirname(current)) {
		if ((fs.statSync(current).mode & 0o001) === 0) {
			throw new Error(`${current} is not enterable by other users, so Postgres (user ${POSTGRES_USER}) cannot reach ${dir}. Run: chmod o+x ${current}`);
		}
	}
}

function runPostgresTool(program, args, { cwd }) {
	const { command, args: fullArgs } = postgresCommand(program, args);
	const result = spawnSync(command, fullArgs, { cwd, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8' } });
	if (result.status !== 0) throw new Error(`${program} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
	return result.stdout;
}

/**
 * Postgres on 127.0.0.1:port with its cluster in `dir` (created on first use, kept afterwards), a role
 * and database for n8n. Resolves {port, database, user, password, dir, query(sql), stop}.
 */
async function startPostgres({ dir, port }) {
	if (!postgresBinDir()) throw new Error('Postgres is missing. Run: sudo apt-get install -y postgresql');
	fs.mkdirSync(dir, { recursive: true });
	checkReachable(dir);
	if (isRoot()) {
		ensurePostgresUser();
		execFileSync('chown', ['-R', `${POSTGRES_USER}:`, dir]);
	}
	fs.chmodSync(dir, 0o700);
	const dataDir = path.join(dir, 'data');
	if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
		// Local trust for the socket only; TCP logins (n8n's) need the password.
		runPostgresTool('initdb', ['-D', dataDir, '-U', 'postgres', '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--no-locale'], { cwd: dir });
	}
	const logFile = path.join(dir, 'postgres.log');
	fs.closeSync(fs.openSync(logFile, 'a'));
	if (isRoot()) execFileSync('chown', [`${POSTGRES_USER}:`, logFile]);
	const serverArgs = ['-D', dataDir, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=100'];
	const { command, args } = postgresCommand('postgres', serverArgs);
	const child = spawnToFile(command, args, { env: { ...process.env, LC_ALL: 'C.UTF-8' }, cwd: dir, logFile });
	const psql = (sql, database = 'postgres') =>
		runPostgresTool('psql', ['-h', dir, '-p', String(port), '-U', 'postgres', '-d', database, '-v', 'ON_ERROR_STOP=1', '-tAc', sql], { cwd: dir });
	await waitUntil(
		'postgres',
		async () => spawnSync(path.join(postgresBinDir(), 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' }).status === 0,
		{ child, logFile },
	);
	if (psql(`SELECT 1 FROM pg_roles WHERE rolname = '${POSTGRES_ROLE}'`).trim() !== '1') {
		psql(`CREATE ROLE ${POSTGRES_ROLE} LOGIN PASSWORD '${POSTGRES_PASSWORD}'`);
	}
	if (psql(`SELECT 1 FROM pg_database WHERE datname = '${POSTGRES_DATABASE}'`).trim() !== '1') {
		psql(`CREATE DATABASE ${POSTGRES_DATABASE} OWNER ${POSTGRES_ROLE}`);
	}
	return {
		port,
		dir,
		logFile,
		child,
		database: POSTGRES_DATABASE,
		user: POSTGRES_ROLE,
		password: POSTGRES_PASSWORD,
		/** Rows of a query in n8n's database, as lines of `|`-separated values. */
		query: (sql) => psql(sql, POSTGRES_DATABASE),
		// Fast shutdown (SIGINT): the smart one (SIGTERM) would wait for clients to leave.
		stop: () => stopPostgres(child),
	};
}

async function stopPostgres(child) {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise((resolve) => child.once('exit', resolve));
	try {
		process.kill(child.pid, 'SIGINT');
	} catch {
		return;
	}
	const timer = setTimeout(() => stopProcessGroup(child, 1_000), 20_000);
	await exited;
	clearTimeout(timer);
}

module.exports = { ensureDebianPackages, missingDebianPackages, startRedis, startPostgres, postgresBinDir };
