'use strict';
// Child processes with their output in a file (never a pipe: `n8n execute` spins at 100% CPU
// when its stdout reader goes away), a hard time limit, and a stop by process group id.
const { spawn } = require('node:child_process');
const fs = require('node:fs');

const KILL_GRACE_MS = 10_000;

/** Signal the process group led by `pid` (children such as n8n's task runner included). */
function signalGroup(pid, signal) {
	try {
		process.kill(-pid, signal);
	} catch {
		try {
			process.kill(pid, signal);
		} catch {
			// already gone
		}
	}
}

/** Spawn `command` detached in its own process group, stdout and stderr appended to `logFile`. */
function spawnToFile(command, args, { env, cwd, logFile }) {
	const fd = fs.openSync(logFile, 'a');
	try {
		return spawn(command, args, { env, cwd, detached: true, stdio: ['ignore', fd, fd] });
	} finally {
		fs.closeSync(fd);
	}
}

function waitForExit(child) {
	if (child.exitCode !== null || child.signalCode !== null) {
		return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
	}
	return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** SIGTERM the group, then SIGKILL it if it is still there after a grace period. */
async function stopProcessGroup(child, graceMs = KILL_GRACE_MS) {
	const exited = waitForExit(child);
	signalGroup(child.pid, 'SIGTERM');
	const timer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), graceMs);
	const result = await exited;
	clearTimeout(timer);
	// The group leader may be gone while a child (the task runner) lingers.
	signalGroup(child.pid, 'SIGKILL');
	return result;
}

/**
 * Run a command to completion with a time limit. Resolves {code, signal, timedOut, output}, output being
 * what the command wrote to `logFile` during this run.
 */
async function runToCompletion(command, args, { env, cwd, logFile, timeoutMs }) {
	const start = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
	const child = spawnToFile(command, args, { env, cwd, logFile });
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		void stopProcessGroup(child);
	}, timeoutMs);
	const { code, signal } = await waitForExit(child);
	clearTimeout(timer);
	signalGroup(child.pid, 'SIGKILL'); // leftovers of the group, if any
	const output = readFrom(logFile, start);
	return { code, signal, timedOut, output };
}

function readFrom(file, offset) {
	const buffer = fs.readFileSync(file);
	return buffer.subarray(offset).toString('utf8');
}

module.exports = { spawnToFile, stopProcessGroup, runToCompletion };
