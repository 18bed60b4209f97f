'use strict';
// Where things live, in one place.
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '..', '..');

// The pinned n8n: its recipe (package.json, lock file, .npmrc) is committed in e2e/n8n; it is installed
// into .n8n-runtime. A hidden folder on purpose: `n8n-node build` copies every **/*.{png,svg} outside
// the top-level node_modules into dist/, and only dot folders are skipped, so n8n's icons would be
// shipped with the package if node_modules sat in e2e/n8n.
const n8nRecipeDir = path.join(repoRoot, 'e2e', 'n8n');
const n8nInstallDir = path.join(repoRoot, '.n8n-runtime');

module.exports = {
	repoRoot,
	n8nRecipeDir,
	n8nInstallDir,
	n8nBin: path.join(n8nInstallDir, 'node_modules', '.bin', 'n8n'),
	examplesDir: path.join(repoRoot, 'e2e', 'examples'),
	artifactsDir: path.join(repoRoot, 'test-artifacts'),
	packageName: require(path.join(repoRoot, 'package.json')).name,
};
