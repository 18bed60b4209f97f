'use strict';
// The sandbox in its own process (so serving 50 MiB or 100,000 CSV lines never delays this process's
// memory sampler), started with its size knobs through its command line, driven by its control endpoints.
const path = require('node:path');
const { spawn } = require('node:child_process');
const { sandboxControl } = require('../lib/sandbox');

const CLI = path.resolve(__dirname, '..', '..', 'sandbox', 'cli.js');
const START_TIMEOUT_MS = 30_000;

async function startSandboxProcess({ accountingLines, paymentFileBytes, generatedCompanies }) {
	const args = [CLI, '--port', '0', '--json'];
	if (accountingLines !== undefined) args.push('--accounting-lines', String(accountingLines));
	if (paymentFileBytes !== undefined) args.push('--payment-file-bytes', String(paymentFileBytes));
	// A partner's many client companies (FR5001, ES6001, GB7001, ... after the seeded four).
	if (generatedCompanies) args.push('--generated-companies', String(generatedCompanies));
	const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
	const info = await new Promise((resolve, reject) => {
		let buffered = '';
		const timer = setTimeout(() => reject(new Error('the sandbox did not start in time')), START_TIMEOUT_MS);
		child.once('exit', (code) => reject(new Error(`the sandbox exited (${code})`)));
		child.stdout.on('data', (chunk) => {
			buffered += chunk;
			const newline = buffered.indexOf('\n');
			if (newline === -1) return;
			clearTimeout(timer);
			resolve(JSON.parse(buffered.slice(0, newline)));
		});
	});
	child.stdout.resume();
	const url = info.apiBaseUrl.replace(/\/api\/v1$/, '');
	const tokenOf = (companyId) => info.tokens.find((entry) => entry.companyId === companyId).token;

	const control = (method, controlPath, body) => sandboxControl({ url }, method, controlPath, body);

	return {
		url,
		apiBaseUrl: info.apiBaseUrl,
		authServerUrl: info.authServerUrl,
		pid: child.pid,
		tokenOf,
		/** A control endpoint (`/_sandbox/...`) of this sandbox. */
		control,
		/** Back to the seed with these size knobs; the start tokens stay valid. */
		reset: (knobs) => control('POST', '/reset', knobs),
		requests: () => control('GET', '/requests'),
		/** The service's rate limit (50 reads, 20 writes per second per application), on or off. */
		rateLimit: (enabled) => control('POST', '/rate-limits', { enabled }),
		clearRequests: () => control('DELETE', '/requests'),
		/** A file as the API serves it, read here with the company's token. */
		async download(apiPath) {
			const response = await fetch(`${info.apiBaseUrl}${apiPath}`, {
				headers: { authorization: `Bearer ${tokenOf('FR1001')}` },
			});
			if (!response.ok) throw new Error(`GET ${apiPath} answered ${response.status}`);
			return Buffer.from(await response.arrayBuffer());
		},
		stop: () =>
			new Promise((resolve) => {
				if (child.exitCode !== null) return resolve();
				child.once('exit', () => resolve());
				child.kill('SIGTERM');
			}),
	};
}

module.exports = { startSandboxProcess };
