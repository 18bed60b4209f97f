'use strict';
// The lab's order of suites: the longest first (test/support/longest-first.js at the repository's root). A
// suite's time is mostly n8n starting and polls, not code. The list names the suites that take longest,
// longest first, as the summary of `npm run test:retry` (scripts/jest-with-one-retry.js) lists them; every
// other suite follows in Jest's own order.
const path = require('node:path');
const { longestFirst } = require('../../../test/support/longest-first');

module.exports = longestFirst(path.join(__dirname, '..'), [
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
]);
