'use strict';
// The tarball a user installs holds the built nodes, credentials and icons, README, LICENSE and CHANGELOG.
// `n8n-node build` copies every *.png/*.svg outside the top-level node_modules into dist/, so a stray folder
// (an n8n install, screenshots) would otherwise be shipped without anyone noticing.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { packPackage, declaredTypes } = require('../lib');

// package.json `files` lists these folders of dist/ only: not tsc's copy of package.json (dist/package.json)
// nor its incremental build state (dist/tsconfig.tsbuildinfo).
const ALLOWED = [
	/^package\/package\.json$/,
	/^package\/(README\.md|LICENSE|CHANGELOG\.md)$/,
	/^package\/dist\/(credentials|nodes|icons)\/.+/,
];

let files;

beforeAll(() => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pack-e2e-'));
	try {
		const tarball = packPackage(dir);
		files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
});

test('holds nothing but the build of nodes, credentials and icons, README, LICENSE and CHANGELOG', () => {
	expect(files.filter((file) => !ALLOWED.some((pattern) => pattern.test(file)))).toEqual([]);
});

test('holds every node and credential file package.json declares', () => {
	const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
	for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) {
		expect(files).toContain(`package/${file}`);
	}
	expect(declaredTypes().nodes.length).toBe(manifest.n8n.nodes.length);
});
