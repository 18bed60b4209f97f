'use strict';
// The trigger's poll schedule for tests in a real n8n: a poll every 10 s, in every version of the matrix.
//
// n8n after 2.9 refuses, at activation, a poll time that fires more than once a minute ("The polling
// interval is too short"), and checks each poll time on its own: a cron with a single fixed second passes
// (n8n-workflow's isSubMinuteCron, called by n8n-core's ActiveWorkflowTriggers.activatePollTrigger). So the
// schedule is six poll times, each once a minute at its own second (0, 10, ..., 50), as a user can enter
// them under Poll Times; n8n registers one cron per poll time, all calling the same poll. n8n 2.8.4 accepts
// them as well. Without this, every "next poll" of n8n 2.40 would be a minute away.
//
// Reactivating the workflow is no shortcut to a poll: the activation's own poll runs at once, but n8n saves
// the trigger's state only after a poll that fired, so a reactivation starts again from the last firing and
// would repeat its baseline (README, "How the lab makes n8n poll").
const POLL_EVERY_SECONDS = 10;
const SECONDS = Array.from({ length: 60 / POLL_EVERY_SECONDS }, (_, index) => index * POLL_EVERY_SECONDS);

/**
 * - `pollTimes`: the trigger's `pollTimes` parameter (one custom cron per second of the minute),
 * - `intervalMs`: the time between two polls,
 * - `quietPolls`: how many polls must pass without a new execution before a test believes that nothing
 *   more fires (at least 20 s of polls),
 * - `waitMs(polls)`: how long `polls` polls take at most, with a margin for a slow machine.
 */
function pollSchedule() {
	const intervalMs = POLL_EVERY_SECONDS * 1000;
	return {
		intervalMs,
		pollTimes: { item: SECONDS.map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })) },
		quietPolls: Math.ceil(20_000 / intervalMs),
		waitMs: (polls = 1) => polls * intervalMs + 30_000,
	};
}

module.exports = { pollSchedule };
