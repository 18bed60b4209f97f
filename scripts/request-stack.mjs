#!/usr/bin/env node
// The size of one resource's request stack: the files a resource imports, directly or not, with
// their lines. `node scripts/request-stack.mjs nodes/PartnerPayroll/resources/payroll/index.ts`
// prints the count of files and lines, then each file with its lines (`--files`).
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
