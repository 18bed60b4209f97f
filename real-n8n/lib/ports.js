'use strict';
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

// Ports for the n8n, Redis and Postgres processes the tests start. A port is chosen long before the
// process binds it (imports and publishing run first), so "free right now" is not enough: in CI an
// outgoing connection or another Jest worker took such a port in between, and n8n exited ("Task
// Broker's port ... is already in use"). Two rules close that gap:
// - ports come from below the kernel's ephemeral range, which outgoing connections never use;
// - each port handed out is reserved by a file named after it, shared by every process of this machine,
//   until the process that reserved it exits (or two hours pass).
const RESERVATIONS = path.join(os.tmpdir(), 'n8n-nodes-partner-payroll-ports');
const RESERVATION_MAX_AGE_MS = 2 * 60 * 60_000;
const LOWEST_PORT = 20_000;
const reservedHere = new Set();

function readEphemeralRangeStart() {
	try {
		const [low] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
		return Number(low) || 32_768;
	} catch {
		return 32_768;
	}
}
const HIGHEST_PORT = readEphemeralRangeStart() - 1;

function isAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

/** Takes the reservation of `port`, or returns false when a live process of this machine holds it. */
function reserve(port) {
	const file = path.join(RESERVATIONS, String(port));
	for (let attempt = 0; attempt < 2; attempt += 1) {
		try {
			fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
			reservedHere.add(file);
			return true;
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
			let holder = NaN;
			let age = 0;
			try {
				holder = Number(fs.readFileSync(file, 'utf8'));
				age = Date.now() - fs.statSync(file).mtimeMs;
			} catch {
				continue; // released meanwhile
			}
			if (isAlive(holder) && age < RESERVATION_MAX_AGE_MS) return false;
			fs.rmSync(file, { force: true }); // its process is gone: the port is free to take
		}
	}
	return false;
}

process.once('exit', () => {
	for (const file of reservedHere) fs.rmSync(file, { force: true });
});

/** True when nothing listens on 127.0.0.1:port (a bind succeeds). */
function canBind(port) {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.unref();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/** A TCP port on 127.0.0.1 that is free now and that no other test process of this machine will be given. */
async function freePort() {
	fs.mkdirSync(RESERVATIONS, { recursive: true });
	const size = HIGHEST_PORT - LOWEST_PORT + 1;
	if (size < 1_000) throw new Error(`The ephemeral port range starts too low (${HIGHEST_PORT + 1}) for the test ports`);
	const start = Math.floor(Math.random() * size);
	for (let step = 0; step < size; step += 1) {
		const port = LOWEST_PORT + ((start + step) % size);
		if (!reserve(port)) continue;
		if (await canBind(port)) return port;
		// Something outside the tests holds it: keep the reservation so nobody else tries it either.
	}
	throw new Error(`No free port between ${LOWEST_PORT} and ${HIGHEST_PORT}`);
}

/** True when something accepts connections on 127.0.0.1:port. */
function isPortInUse(port) {
	return new Promise((resolve) => {
		const socket = net.connect({ port, host: '127.0.0.1' });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

module.exports = { freePort, isPortInUse };
