#!/usr/bin/env node
// The size of one resource's request stack: the files a resource imports, directly or not, with
// their lines. `node scripts/request-stack.mjs nodes/PartnerPayroll/resources/payroll/index.ts`
// prints the count of files and lines, then each file with its lines (`--files`).
// `--path` also runs test/package/requestPath.test.ts (one Download Payment File item with the
// Partner API credential, against the sandbox) and prints the files in the order they are entered.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

const args = process.argv.slice(2);
const flags = args.filter((arg) => arg.startsWith('--'));
const [entry = 'nodes/PartnerPayroll/resources/payroll/index.ts'] = args.filter((arg) => !arg.startsWith('--'));

function resolveImport(from, specifier) {
	const base = resolve(dirname(from), specifier);
	for (const candidate of [`${base}.ts`, `${base}/index.ts`, base]) {
		if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
	}
	throw new Error(`${relative('.', from)}: cannot resolve ${specifier}`);
}

const seen = new Map();
const pending = [resolve(entry)];
while (pending.length) {
	const file = pending.pop();
	if (seen.has(file)) continue;
	const text = readFileSync(file, 'utf8');
	seen.set(file, text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
	// Type-only imports count too: a reader follows them as well.
	for (const [, specifier] of text.matchAll(/from\s+'(\.[^']*)'/g)) {
		pending.push(resolveImport(file, specifier));
	}
}

const lines = [...seen.values()].reduce((sum, count) => sum + count, 0);
console.log(`${relative('.', resolve(entry))}: ${seen.size} files, ${lines} lines`);
if (flags.includes('--files')) {
	for (const [file, count] of [...seen].sort((a, b) => b[1] - a[1])) {
		console.log(`${String(count).padStart(6)}  ${relative('.', file)}`);
	}
}

if (flags.includes('--path')) {
	const jest = spawnSync('npx', ['jest', 'test/package/requestPath.test.ts', '--silent'], {
		stdio: ['ignore', 'ignore', 'inherit'],
	});
	if (jest.status !== 0) process.exit(jest.status ?? 1);
	console.log('\nDownload Payment File, Partner API credential: the files in the order they are entered');
	process.stdout.write(readFileSync('test-artifacts/request-path.txt', 'utf8'));
}
