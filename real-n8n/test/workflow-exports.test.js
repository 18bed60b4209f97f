'use strict';
// The package gets `n8n-workflow` from the n8n it runs in (a peer dependency), not from its own
// devDependencies: every value it uses from it must exist in each n8n of the matrix. (n8n 2.40's
// n8n-workflow dropped `sleepWithAbort`, which the in-process tests, on n8n-workflow 2.8, never saw.)
const fs = require('node:fs');
const path = require('node:path');
const { repoRoot } = require('../lib');
const { n8nRuntime } = require('../lib/runtimes');

function builtFiles(folder) {
	return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const file = path.join(folder, entry.name);
		if (entry.isDirectory()) return builtFiles(file);
		return entry.name.endsWith('.js') ? [file] : [];
	});
}

/** Every `n8n_workflow_1.<name>` the compiled package reads at run time. */
function workflowValuesUsed() {
	const used = new Set();
	for (const folder of ['nodes', 'credentials']) {
		for (const file of builtFiles(path.join(repoRoot, 'dist', folder))) {
			for (const match of fs.readFileSync(file, 'utf8').matchAll(/n8n_workflow_\d+\.(\w+)/g)) used.add(match[1]);
		}
	}
	return [...used].sort();
}

test("every value the package uses from n8n-workflow exists in this n8n's n8n-workflow", () => {
	const runtime = n8nRuntime();
	const workflow = require(path.join(runtime.installDir, 'node_modules', 'n8n-workflow'));
	const used = workflowValuesUsed();
	expect(used).toContain('NodeOperationError'); // the scan reads the build
	expect(used.filter((name) => workflow[name] === undefined)).toEqual([]);
});
