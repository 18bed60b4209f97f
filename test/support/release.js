'use strict';
// What the release tests (test/package/codex, scanner, release) read and run outside the package's own code:
// the project's files, n8n's scanner on the packed package (scripts/scan-package.mjs), the release guard
// (scripts/release-guard.js) and `npm publish` against a local stand-in for the npm registry.
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { releaseProblems } = require('../../scripts/release-guard.js');

const root = path.resolve(__dirname, '..', '..');

const readProjectFile = (file) => fs.readFileSync(path.join(root, file), 'utf8');
const projectManifest = () => JSON.parse(readProjectFile('package.json'));
const projectFiles = (folder) => fs.readdirSync(path.join(root, folder));
const projectFileExists = (file) => fs.existsSync(path.join(root, file));

/** Every file below `folder` whose name ends with `extension`, relative to the project. */
function projectFilesUnder(folder, extension) {
	return fs.readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.posix.join(folder, entry.name);
		if (entry.isDirectory()) return projectFilesUnder(relative, extension);
		return entry.name.endsWith(extension) ? [relative] : [];
	});
}

/** A relative link of the project file `from`, as a path relative to the project (`..` when it leaves it). */
const resolveProjectLink = (from, link) => path.posix.join(path.posix.dirname(from), link);

/** Every `*.node.json` under nodes/, by node base name (PartnerPayroll for PartnerPayroll.node.json). */
function codexFiles() {
	const found = [];
	const walk = (dir) => {
		for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) walk(full);
			else if (entry.name.endsWith('.node.json')) {
				found.push({
					name: entry.name.replace(/\.node\.json$/, ''),
					file: path.relative(root, full),
					codex: JSON.parse(fs.readFileSync(full, 'utf8')),
				});
			}
		}
	};
	walk(path.join(root, 'nodes'));
	return found.sort((a, b) => a.file.localeCompare(b.file));
}

/**
 * The anchors GitHub gives the headings of a Markdown text: lower case, punctuation dropped (letters,
 * digits, spaces, hyphens and underscores kept), spaces as hyphens, and a repeated anchor numbered (-1, -2).
 * Headings inside fenced code blocks are not headings.
 */
function headingAnchors(markdown) {
	const seen = new Map();
	let fenced = false;
	const anchors = [];
	for (const line of markdown.split('\n')) {
		if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
		if (fenced || !/^#{1,6} /.test(line)) continue;
		const slug = line
			.replace(/^#+ /, '')
			.trim()
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\-_ ]/gu, '')
			.replace(/ /g, '-');
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		anchors.push(count ? `${slug}-${count}` : slug);
	}
	return anchors;
}

/** The anchors GitHub gives the README's headings. */
const readmeAnchors = () => headingAnchors(readProjectFile('README.md'));

/** scripts/scan-package.mjs --json: packs the built package and runs n8n's scanner on it. */
function scanPackedPackage() {
	return new Promise((resolve, reject) => {
		execFile(
			process.execPath,
			[path.join(root, 'scripts', 'scan-package.mjs'), '--json'],
			{ cwd: root, timeout: 150_000, maxBuffer: 16 * 1024 * 1024 },
			(error, stdout, stderr) => {
				// Exit code 1 is a scan with findings, which the report lists; anything else is a failure to scan.
				if (error && error.code !== 1) reject(new Error(`${error.message}\n${stderr}`));
				else resolve(JSON.parse(stdout.trim().split('\n').pop()));
			},
		);
	});
}

/**
 * A folder that looks like this project to the release guard: package.json with `version`, a CHANGELOG.md
 * with `changelog`, and the built files package.json declares when `built`.
 */
function fakeReleaseRoot({ version, changelog, built }) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-guard-'));
	const manifest = projectManifest();
	fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ ...manifest, version }));
	fs.writeFileSync(path.join(dir, 'CHANGELOG.md'), changelog);
	if (built) {
		for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) {
			fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
			fs.writeFileSync(path.join(dir, file), '');
		}
	}
	return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * `npm publish <args>` from this project to a local registry that records every request (PUT is the
 * publish), in an environment with no CI variable and no npm_* variable of this process.
 */
async function npmPublishLocally(args) {
	const requests = [];
	const registry = http.createServer((request, response) => {
		requests.push({ method: request.method, url: request.url });
		request.resume();
		request.on('end', () => {
			response.writeHead(request.method === 'PUT' ? 201 : 404, {
				'content-type': 'application/json',
			});
			response.end('{}');
		});
	});
	await new Promise((resolve) => registry.listen(0, '127.0.0.1', resolve));
	const registryUrl = `http://127.0.0.1:${registry.address().port}/`;
	const env = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8' };
	try {
		return await new Promise((resolve) => {
			execFile(
				'npm',
				[
					'publish',
					...args,
					'--registry',
					registryUrl,
					`--${registryUrl.replace(/^http:/, '')}:_authToken=not-a-real-token`,
				],
				{ cwd: root, env, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 },
				(error, stdout, stderr) => {
					const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
					resolve({ code, output: `${stdout}\n${stderr}`, requests });
				},
			);
		});
	} finally {
		await new Promise((resolve) => registry.close(resolve));
	}
}

module.exports = {
	codexFiles,
	fakeReleaseRoot,
	npmPublishLocally,
	projectFiles,
	projectManifest,
	readProjectFile,
	headingAnchors,
	readmeAnchors,
	projectFileExists,
	projectFilesUnder,
	resolveProjectLink,
	releaseProblems,
	scanPackedPackage,
};
