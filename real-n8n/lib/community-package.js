'use strict';
// Load the package the way n8n loads an installed community package: the `npm pack` tarball unpacked
// into <N8N_USER_FOLDER>/.n8n/nodes/node_modules/<name>, so node types carry the real package prefix.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { repoRoot, packageName } = require('./paths');
const { moveIntoPlace } = require('./folders');

/**
 * `npm pack` the built package (the caller runs `npm run build`), or another package folder (the bench's
 * fixtures), into `destDir`; returns the tarball path.
 */
function packPackage(destDir, packageDir = repoRoot) {
	fs.mkdirSync(destDir, { recursive: true });
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', destDir], {
		cwd: packageDir,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const [{ filename }] = JSON.parse(out);
	return path.join(destDir, filename);
}

/** A digest of what `npm pack` of the repository takes: dist/ and the files package.json ships beside it. */
function buildDigest() {
	const hash = crypto.createHash('sha256');
	const add = (file) => {
		hash.update(path.relative(repoRoot, file));
		hash.update(fs.readFileSync(file));
	};
	const walk = (folder) => {
		for (const entry of fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
			const file = path.join(folder, entry.name);
			if (entry.isDirectory()) walk(file);
			else add(file);
		}
	};
	walk(path.join(repoRoot, 'dist'));
	for (const name of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']) add(path.join(repoRoot, name));
	return hash.digest('hex').slice(0, 16);
}

const tarballIn = (folder) => {
	const name = fs.existsSync(folder) && fs.readdirSync(folder).find((file) => file.endsWith('.tgz'));
	return name ? path.join(folder, name) : null;
};

/**
 * The built package packed once per build (the caller runs `npm run build`): every lab instance, in every
 * Jest worker, unpacks the same tarball, kept in the temporary folder under the digest of what it packs.
 * npm is a process of its own, about 2 s of CPU per pack.
 */
function packedBuild() {
	const folder = path.join(os.tmpdir(), `n8n-e2e-package-${buildDigest()}`);
	const packed = tarballIn(folder);
	if (packed) return packed;
	const staged = fs.mkdtempSync(`${folder}.`);
	packPackage(staged);
	// Another worker may pack the same build first: its tarball is kept.
	moveIntoPlace(staged, folder);
	return tarballIn(folder);
}

function installedPackageDir(userFolder, name = packageName) {
	return path.join(userFolder, '.n8n', 'nodes', 'node_modules', name);
}

/** Replace whatever version of the package `name` the user folder holds with the tarball's content. */
function installPackageInto(userFolder, tarball, name = packageName) {
	const target = installedPackageDir(userFolder, name);
	fs.rmSync(target, { recursive: true, force: true });
	fs.mkdirSync(target, { recursive: true });
	execFileSync('tar', ['xzf', tarball, '--strip-components=1', '-C', target]);
	return target;
}

/** Node types (with the package prefix) and credential types declared in package.json `n8n`. */
function declaredTypes() {
	const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
	const typeName = (file) => {
		const base = path.basename(file).replace(/\.(node|credentials)\.js$/, '');
		return base.charAt(0).toLowerCase() + base.slice(1);
	};
	return {
		nodes: manifest.n8n.nodes.map((file) => `${packageName}.${typeName(file)}`),
		credentials: manifest.n8n.credentials.map(typeName),
	};
}

module.exports = { packPackage, packedBuild, installPackageInto, installedPackageDir, declaredTypes };
