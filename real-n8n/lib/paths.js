'use strict';
// Where things live, in one place.
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '..', '..');

// The n8n versions (recipes and install folders) are in runtimes.js.

module.exports = {
	repoRoot,
	examplesDir: path.join(repoRoot, 'real-n8n', 'examples'),
	artifactsDir: path.join(repoRoot, 'test-artifacts'),
	packageName: require(path.join(repoRoot, 'package.json')).name,
};
