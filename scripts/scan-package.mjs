#!/usr/bin/env node
// n8n's verification scanner (@n8n/scan-community-package) on this package as it would be published, offline.
//
// `npx @n8n/scan-community-package <name>` scans a published package only: it reads the npm registry's
// metadata, checks the npm provenance, downloads the source at the attested GitHub commit and the tarball
// from the registry, and lints both with the same ESLint rules (`analyzePackage`). This script runs those two
// lint legs with the scanner's own exported functions and rule set, on what is here:
//   - the tarball leg: `npm pack` of the built package, unpacked, files `**/*.js` and `package.json`;
//   - the source leg: this working tree, files `SOURCE_FILE_PATTERNS` (package.json, nodes/, credentials/).
// The provenance leg cannot run before a release: the publish workflow gives the package its provenance,
// and `npx @n8n/scan-community-package n8n-nodes-partner-payroll@<version>` checks it after publishing.
//
// Every finding fails the run, warnings included (the scanner itself fails on errors only).
// Usage: node scripts/scan-package.mjs [--json]   (after `npm run build`; `npm run scan` builds first)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const asJson = process.argv.includes('--json');

function fail(message) {
	console.error(`scan-package: ${message}`);
	process.exit(2);
}

/** The built files package.json declares must exist: the scan is of what `npm pack` ships now. */
function checkBuilt(manifest) {
	const declared = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
	const missing = declared.filter((file) => !fs.existsSync(path.join(repoRoot, file)));
	if (missing.length > 0) {
		fail(`${missing.join(', ')} missing: run \`npm run build\` first (or \`npm run scan\`).`);
	}
}

function packInto(dir) {
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
		cwd: repoRoot,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const [{ filename, files }] = JSON.parse(out);
	const tarball = path.join(dir, path.basename(filename));
	const unpacked = path.join(dir, 'package');
	fs.mkdirSync(unpacked);
	execFileSync('tar', ['xzf', tarball, '--strip-components=1', '-C', unpacked]);
	return { tarball, unpacked, files: files.map((file) => file.path).sort() };
}

/** One leg of the scan: the scanner's analyzePackage gives pass/fail; the ESLint results give each finding. */
async function runLeg(scanner, name, dir, patterns) {
	const { ESLint } = await import(
		require.resolve('eslint', {
			paths: [require.resolve('@n8n/scan-community-package/package.json')],
		})
	);
	const verdict = await scanner.analyzePackage(dir, patterns);
	if (verdict.error) throw verdict.error;
	// The same files and configuration as analyzePackage, to list warnings too (it reports errors only).
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await scanner.buildScanConfig(),
	});
	const glob = require(
		require.resolve('fast-glob', {
			paths: [require.resolve('@n8n/scan-community-package/package.json')],
		}),
	);
	const files = glob.sync(patterns, {
		cwd: dir,
		absolute: true,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	const results = files.length > 0 ? await eslint.lintFiles(files) : [];
	const findings = results.flatMap((result) =>
		result.messages.map((message) => ({
			file: path.relative(dir, result.filePath),
			line: message.line,
			severity: message.severity === 2 ? 'error' : 'warning',
			rule: message.ruleId,
			message: message.message,
		})),
	);
	return { leg: name, filesScanned: files.length, scannerPassed: verdict.passed, findings };
}

async function main() {
	// eslint-plugin-n8n-nodes-base changes what some rules check when NODE_ENV is "test" (as under Jest): scan
	// as n8n's scanner runs, without it.
	delete process.env.NODE_ENV;
	const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
	checkBuilt(manifest);
	// The scanner makes a temporary folder when it loads (for registry downloads this script never makes);
	// its tmp module removes it at exit only once graceful cleanup is on.
	require(
		require.resolve('tmp', {
			paths: [require.resolve('@n8n/scan-community-package/package.json')],
		}),
	).setGracefulCleanup();
	const scanner = await import('@n8n/scan-community-package/scanner/scanner.mjs');
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'scan-package-'));
	try {
		const packed = packInto(work);
		const legs = [
			await runLeg(scanner, 'tarball', packed.unpacked, ['**/*.js', 'package.json']),
			await runLeg(scanner, 'source', repoRoot, scanner.SOURCE_FILE_PATTERNS),
		];
		const findings = legs.flatMap((leg) =>
			leg.findings.map((finding) => ({ leg: leg.leg, ...finding })),
		);
		const passed = findings.length === 0 && legs.every((leg) => leg.scannerPassed);
		const report = {
			scanner: require('@n8n/scan-community-package/package.json').version,
			package: `${manifest.name}@${manifest.version}`,
			tarballFiles: packed.files,
			legs: legs.map(({ leg, filesScanned, scannerPassed, findings: list }) => ({
				leg,
				filesScanned,
				scannerPassed,
				findings: list.length,
			})),
			findings,
			passed,
		};
		if (asJson) {
			process.stdout.write(`${JSON.stringify(report)}\n`);
		} else {
			for (const leg of report.legs) {
				console.log(`${leg.leg}: ${leg.filesScanned} files, ${leg.findings} findings`);
			}
			for (const f of findings) {
				console.log(`  [${f.leg}] ${f.file}:${f.line} ${f.severity} ${f.rule}: ${f.message}`);
			}
			console.log(
				passed
					? `n8n's scanner ${report.scanner}: ${report.package} has 0 findings`
					: `n8n's scanner ${report.scanner}: ${report.package} has ${findings.length} findings`,
			);
		}
		process.exitCode = passed ? 0 : 1;
	} finally {
		fs.rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(2);
});
