'use strict';
// Jest's order of test files, longest first, so that the workers finish together instead of one starting a
// long file while the others have nothing left. Jest's own order uses the times of the previous run in its
// cache, and on a fresh clone (CI) the files' sizes, which say nothing of a model's thousands of histories
// or of a real n8n's polls. Used by the package's Jest (test/support/longest-first-sequencer.js) and the lab's
// (real-n8n/test/support/longest-first-sequencer.js), each with its own list.
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/**
 * A test sequencer that runs the files of `longest` (paths relative to `baseDir`, longest first) before every
 * other file, which keeps Jest's own order.
 */
function longestFirst(baseDir, longest) {
	const rank = (test) => {
		const index = longest.indexOf(path.relative(baseDir, test.path));
		return index === -1 ? longest.length : index;
	};
	return class LongestFirstSequencer extends Sequencer {
		sort(tests) {
			// Array.prototype.sort is stable: within one rank, Jest's order stays.
			return super.sort(tests).sort((a, b) => rank(a) - rank(b));
		}
	};
}

module.exports = { longestFirst };
