'use strict';
// Folders that several lab processes may make at the same moment.
const fs = require('node:fs');

/**
 * Renames a finished `staged` folder to `target` in one step, so no process ever reads a half-made
 * `target`. When another process put its own there first (the same content), `staged` is dropped.
 */
function moveIntoPlace(staged, target) {
	try {
		fs.renameSync(staged, target);
	} catch (error) {
		fs.rmSync(staged, { recursive: true, force: true });
		if (!fs.existsSync(target)) throw error;
	}
}

module.exports = { moveIntoPlace };
