'use strict';
// The lab's order of suites: the longest first, so that the workers finish together instead of one
// starting a long suite while the others have nothing left. Jest's own order uses the times of the previous
// run in its cache, and on a fresh clone (CI) the file sizes, which say little here: a suite's time is
// mostly n8n starting and polls, not code. LONGEST names the suites that take longest, longest first, as
// the summary of `npm run test:retry` (scripts/jest-with-one-retry.js) lists them; every other suite
// follows in Jest's own order.
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const LONGEST = [
	'queue/partner-month-end-queue.test.js',
	'partner-month-end.test.js',
	'queue/queue-mode.test.js',
	'trigger-promises.test.js',
	'connect-link.test.js',
	'trigger.test.js',
	'partner-secrets.test.js',
	'trigger-edges.test.js',
	'editor-partner-credential.test.js',
	'demo-start.test.js',
	'editor.test.js',
	'webhook-trigger.test.js',
	'queue/connect-queue.test.js',
	'queue/billing-declarations.test.js',
	'cli.test.js',
	'partner-example.test.js',
	'webhook-example.test.js',
	'trigger-partner.test.js',
	'editor-new-oauth2.test.js',
	'queue/webhook-queue.test.js',
	'promises.test.js',
];

const rank = (test) => {
	const index = LONGEST.indexOf(path.relative(path.join(__dirname, '..'), test.path));
	return index === -1 ? LONGEST.length : index;
};

class LongestFirstSequencer extends Sequencer {
	sort(tests) {
		// Array.prototype.sort is stable: within one rank, Jest's order stays.
		return super.sort(tests).sort((a, b) => rank(a) - rank(b));
	}
}

module.exports = LongestFirstSequencer;
