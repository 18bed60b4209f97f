'use strict';
// Load the package the way n8n loads an installed community package: the `npm pack` tarball unpacked
// into <N8N_USER_FOLDER>/.n8n/nodes/node_modules/<name>, so node types carry the real package prefix.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { repoRoot, packageName } = require('./paths');

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

module.exports = { packPackage, installPackageInto, installedPackageDir, declaredTypes };
