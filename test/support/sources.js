'use strict';
// The package's own TypeScript sources, for tests that read the code itself (test/package/functionLength).
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');

/** Every `.ts` file below the project's `folders` (declaration files left out), with its path from the root. */
function typeScriptSources(folders) {
	const files = [];
	const walk = (folder) => {
		for (const entry of fs.readdirSync(path.join(root, folder), { withFileTypes: true })) {
			const file = path.posix.join(folder, entry.name);
			if (entry.isDirectory()) walk(file);
			else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
				files.push({ path: file, text: fs.readFileSync(path.join(root, file), 'utf8') });
			}
		}
	};
	for (const folder of folders) walk(folder);
	return files;
}

module.exports = { typeScriptSources };
