'use strict';
// What the example suites wait for: a condition, checked every second, and a workflow's executions once
// each of them has finished.

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `check()` is true; fails naming `what` after `waitMs`. */
async function waitUntil(what, check, waitMs) {
	const deadline = Date.now() + waitMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`waited ${waitMs} ms for ${what}`);
		await pause(1_000);
	}
}

/** The workflow's executions (oldest first), once every one of them has finished; undefined before. */
async function finishedExecutions(api, workflowId) {
	const executions = (await api.executions(workflowId)).reverse();
	return executions.every((execution) => execution.stoppedAt) ? executions : undefined;
}

module.exports = { waitUntil, finishedExecutions };
