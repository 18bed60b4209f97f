'use strict';
// `n8n start` as a child process: started in its own process group, ready when the editor's REST API
// answers, stopped by its process id.
const fs = require('node:fs');
const path = require('node:path');
const { n8nRuntime } = require('./runtimes');
const { spawnToFile, stopProcessGroup } = require('./process');

const READY_TIMEOUT_MS = 120_000;
const POLL_MS = 500;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function answers(url) {
	try {
		const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
		return response.ok;
	} catch {
		return false;
	}
}

function logTail(logFile, lines = 40) {
	if (!fs.existsSync(logFile)) return '';
	return fs.readFileSync(logFile, 'utf8').split('\n').slice(-lines).join('\n');
}

/**
 * Start `n8n start` with `env` and wait until it serves the editor. Resolves {url, pid, logFile, stop, child};
 * the output goes to `logFile`, by default <userFolder>/n8n.log. `runtime`: the n8n version (runtimes.js).
 */
async function startN8n(env, { logFile, readyTimeoutMs = READY_TIMEOUT_MS, runtime = n8nRuntime() } = {}) {
	const url = `http://127.0.0.1:${env.N8N_PORT}`;
	const log = logFile ?? path.join(env.N8N_USER_FOLDER, 'n8n.log');
	const child = spawnToFile(runtime.n8nBin, ['start'], { env, cwd: env.N8N_USER_FOLDER, logFile: log });
	let exited = null;
	child.once('exit', (code, signal) => (exited = { code, signal }));

	// `graceMs`: how long n8n may take to stop before it is killed (stopProcessGroup's default when omitted).
	const stop = (graceMs) => stopProcessGroup(child, graceMs);
	const deadline = Date.now() + readyTimeoutMs;
	// Readiness turns 200 before the editor and /rest are served, so wait for /rest/settings too.
	while (!(await answers(`${url}/healthz/readiness`)) || !(await answers(`${url}/rest/settings`))) {
		if (exited) throw new Error(`n8n start exited early (${JSON.stringify(exited)})\n${logTail(log)}`);
		if (Date.now() > deadline) {
			await stop();
			throw new Error(`n8n start was not ready within ${readyTimeoutMs} ms\n${logTail(log)}`);
		}
		await sleep(POLL_MS);
	}
	return { url, pid: child.pid, logFile: log, stop, child };
}

module.exports = { startN8n };
