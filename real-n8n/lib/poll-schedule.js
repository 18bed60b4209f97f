'use strict';
// The trigger's poll schedule for tests in a real n8n: the shortest one each n8n version accepts.
// n8n 2.8.4 accepts a cron with an explicit seconds list (every 10 s); n8n after 2.9 refuses anything
// under a minute when activating ("The polling interval is too short"), so there it is every minute,
// on the minute. The interval itself is declared per version in runtimes.js.
const { n8nRuntime } = require('./runtimes');

function cronEvery(seconds) {
	if (seconds === 60) return '0 * * * * *';
	if (seconds < 60 && 60 % seconds === 0) {
		const list = Array.from({ length: 60 / seconds }, (_, index) => index * seconds);
		return `${list.join(',')} * * * * *`;
	}
	throw new Error(`No cron for a poll every ${seconds} s`);
}

/**
 * For `runtime` (by default the one E2E_N8N selects):
 * - `pollTimes`: the trigger's `pollTimes` parameter (a custom cron),
 * - `cronExpression`, `intervalMs`: the schedule and the time between two polls,
 * - `quietPolls`: how many polls must pass without a new execution before a test believes that nothing
 *   more fires (at least 20 s of polls: 2 every 10 s, 1 every minute),
 * - `waitMs(polls)`: how long `polls` polls take at most, with a margin for a slow machine.
 */
function pollSchedule(runtime = n8nRuntime()) {
	const intervalMs = runtime.pollEverySeconds * 1000;
	const cronExpression = cronEvery(runtime.pollEverySeconds);
	return {
		cronExpression,
		intervalMs,
		pollTimes: { item: [{ mode: 'custom', cronExpression }] },
		quietPolls: Math.max(1, Math.ceil(20_000 / intervalMs)),
		waitMs: (polls = 1) => polls * intervalMs + 30_000,
	};
}

module.exports = { pollSchedule };
