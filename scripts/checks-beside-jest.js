#!/usr/bin/env node
'use strict';
// The end of `npm test`, after the build: the static checks (lint, Prettier's check, the type check) run beside
// Jest instead of before it. Jest leaves about a third of 2 cores idle (its suites wait on HTTP to the
// sandbox), which the checks fill. Jest's output streams as it comes; each check's output is printed when it
// ends. Exits with 1 when anything failed, after everything has ended, naming what failed.
const { spawn } = require('node:child_process');

const CHECKS = ['lint', 'format:check', 'typecheck'];

/** Resolves {code, output} of `command args`; its output is kept, or streamed when `stream` is set. */
function run(command, args, { stream = false } = {}) {
	return new Promise((resolve) => {
		const child = spawn(command, args, {
			stdio: ['ignore', stream ? 'inherit' : 'pipe', stream ? 'inherit' : 'pipe'],
		});
		let output = '';
		child.stdout?.on('data', (chunk) => (output += chunk));
		child.stderr?.on('data', (chunk) => (output += chunk));
		child.once('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
		// A signal leaves no exit code: that is a failure too.
		child.once('exit', (code) => resolve({ code: code ?? 1, output }));
	});
}

async function main() {
	const checks = CHECKS.map(async (script) => {
		const result = await run('npm', ['run', '--silent', script]);
		process.stdout.write(
			`\n[npm test] npm run ${script}: ${result.code === 0 ? 'passed' : 'FAILED'}\n${result.output}`,
		);
		return { name: `npm run ${script}`, ...result };
	});
	const jestBin = require.resolve('jest/bin/jest');
	const jest = run(process.execPath, [jestBin, ...process.argv.slice(2)], { stream: true }).then(
		(result) => ({ name: 'jest', ...result }),
	);
	const failed = (await Promise.all([...checks, jest])).filter((result) => result.code !== 0);
	if (failed.length > 0) {
		console.error(`\n[npm test] failed: ${failed.map((result) => result.name).join(', ')}`);
		process.exit(1);
	}
}

main();
