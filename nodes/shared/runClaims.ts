import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { serviceInstant } from './instants';
import { recordDigest, storedDigests } from './recordDigest';

// Which runs the package's triggers started, per workflow: the Partner Payroll Trigger (poll) and the
// Partner Payroll Webhook Trigger of one workflow claim a run here, by its identity (`runKeyOf`),
// before they start the workflow for it, so a payroll run that both see starts the workflow once.
//
// Why it holds: n8n runs every trigger's poll() and webhook() in one process, the main instance (in
// queue mode too: workers run executions, not triggers), unless separate webhook processes take the
// deliveries. In that process the check and the claim are one synchronous step, with no await
// between them, so no other poll or delivery can come in between. The claims also live in the
// workflow's static data (RUNS_FIELD), written by each trigger with its own record: whichever of the
// triggers' saves n8n makes last carries the runs of both, and a restart reads them back. A run is
// known by the digest of its key (`recordDigest`), in memory as in static data.

/** The static data field (workflow-wide) of the claims, read by both triggers. */
export const RUNS_FIELD = 'partnerPayrollRuns';

/** Claims kept per workflow, the oldest dropped first: months of a partner's whole client list. */
export const RUNS_KEPT = 3000;

/** A workflow's runs by the digest of their key (`runKeyOf`): started (in claim order), and held while n8n starts them. */
interface WorkflowRuns {
	started: Set<string>;
	/**
	 * Runs held: by a webhook delivery n8n is still turning into an execution (no holder), or by a
	 * poll until it returns (the poll's own object: n8n gives every poll of an activation one context).
	 */
	held: Map<string, object | undefined>;
}

const runsByWorkflow = new Map<string, WorkflowRuns>();

// n8n quirk Q23: docs/n8n-quirks.md
// The static data object of each workflow's newest poll activation in this process. n8n loads it
// before the activation's poll, serves deliveries meanwhile, and saves it whole after the activation
// when it changed, even if the poll returned nothing: over the save of a delivery handed over since.
// Every run started in this process is written into it at once, so that save, and any later one of
// the poll's copy, carries it.
const pollCopies = new Map<string, IDataObject>();

function runsOf(workflowId: string): WorkflowRuns {
	let runs = runsByWorkflow.get(workflowId);
	if (!runs) {
		runs = { started: new Set(), held: new Map() };
		runsByWorkflow.set(workflowId, runs);
	}
	return runs;
}

function start(runs: WorkflowRuns, digest: string): void {
	runs.held.delete(digest);
	runs.started.add(digest);
	for (const oldest of runs.started) {
		if (runs.started.size <= RUNS_KEPT) return;
		runs.started.delete(oldest);
	}
}

/** Writes the started runs into the poll's copy of the static data when it lacks one of them. */
function copyToPoll(workflowId: string): void {
	const copy = pollCopies.get(workflowId);
	if (!copy) return;
	const known = new Set(storedDigests(copy[RUNS_FIELD]));
	for (const digest of runsOf(workflowId).started) {
		if (!known.has(digest)) {
			copy[RUNS_FIELD] = storableRuns(workflowId);
			return;
		}
	}
}

/**
 * The workflow-wide static data of the poll activation whose polls count (the newest): from now on
 * it holds every run this process starts, those started before included.
 */
export function keepRunsInPollCopy(workflowId: string, copy: IDataObject): void {
	pollCopies.set(workflowId, copy);
	copyToPoll(workflowId);
}

/** Adds the runs a stored list holds (the other trigger's save, or a save before a restart). */
export function adoptStoredRuns(workflowId: string, stored: unknown): void {
	const runs = runsOf(workflowId);
	for (const digest of storedDigests(stored)) if (!runs.started.has(digest)) start(runs, digest);
	copyToPoll(workflowId);
}

/**
 * Holds a run until `startRun` (n8n created the execution) or `releaseRun` (it answered that it did
 * not): false when a trigger of this workflow started it or holds it. A hold never lapses with time:
 * n8n may create the execution long after the sender closed the connection (a loaded n8n), and a
 * hold that lapsed then would let a retry start the run twice. A hand-over that n8n dropped without
 * an answer keeps the run held in this process until it restarts; the poll after the restart starts it.
 */
export function holdRun(workflowId: string, key: string): boolean {
	return hold(runsOf(workflowId), recordDigest(key), undefined);
}

function hold(runs: WorkflowRuns, digest: string, holder: object | undefined): boolean {
	if (runs.started.has(digest) || runs.held.has(digest)) return false;
	runs.held.set(digest, holder);
	return true;
}

/** Holds and starts a run at once: false when a trigger of this workflow started or holds it. */
function claim(runs: WorkflowRuns, digest: string): boolean {
	if (!hold(runs, digest, undefined)) return false;
	start(runs, digest);
	return true;
}

/** Whether a webhook delivery holds the run while n8n starts it (not started yet). */
export function isRunHeld(workflowId: string, key: string): boolean {
	return runsByWorkflow.get(workflowId)?.held.has(recordDigest(key)) ?? false;
}

/** Whether a trigger of this workflow started the run (not only holds it). */
export function isRunStarted(workflowId: string, key: string): boolean {
	return runsOf(workflowId).started.has(recordDigest(key));
}

/** The held run was started: n8n created its execution. */
export function startRun(workflowId: string, key: string): void {
	start(runsOf(workflowId), recordDigest(key));
	copyToPoll(workflowId);
}

/** Gives a held run back: n8n could not create the execution, and the sender will retry. */
export function releaseRun(workflowId: string, key: string): void {
	runsByWorkflow.get(workflowId)?.held.delete(recordDigest(key));
}

/** Claims a run that starts as the caller returns (a poll's items): false when already taken. */
export function claimRun(workflowId: string, key: string): boolean {
	if (!claim(runsOf(workflowId), recordDigest(key))) return false;
	copyToPoll(workflowId);
	return true;
}

/**
 * Holds, for the poll `poll` (an object of that poll alone), a run it counts as fired: a poll checks
 * many companies and claims their runs only as it returns, and a delivery in between would otherwise
 * take the run while the poll's state says it fired; if that hand-over then failed for good, no
 * trigger would start it. False when a trigger of this workflow started or holds it.
 */
export function holdRunForPoll(poll: object, workflowId: string, key: string): boolean {
	return hold(runsOf(workflowId), recordDigest(key), poll);
}

/**
 * Gives back the runs the poll still holds: it ended without returning them (its result dropped, or
 * it failed), or a newer poll of the trigger made it drop its result (it may never settle).
 */
export function releasePollHolds(workflowId: string, poll: object): void {
	const held = runsByWorkflow.get(workflowId)?.held;
	for (const [digest, holder] of held ?? []) if (holder === poll) held!.delete(digest);
}

/**
 * What a run is claimed by. A payroll run: company, month and end instant to the second, the same
 * whichever trigger saw it (the poll's `executionEndDate` has milliseconds, the webhook's
 * `effectiveDate` is written to the second): not the `dedupeKey`, which names the month alone for
 * the run each trigger saw first, and the two may not have seen the same one first. Any other item:
 * its `dedupeKey`; none for an item without one.
 */
export function runKeyOf(json: IDataObject): string | undefined {
	const end = json.executionEndDate ?? json.effectiveDate;
	const { companyId, month } = json;
	if (typeof companyId === 'string' && typeof month === 'string' && typeof end === 'string') {
		const instant = serviceInstant(end);
		if (instant) {
			const second = instant.startOf('second').toISO();
			return `payroll:${companyId}:${month}:${second}`;
		}
	}
	return typeof json.dedupeKey === 'string' ? json.dedupeKey : undefined;
}

/**
 * The items whose run this call claimed (an item that is no run, `runKeyOf` none, stays); `poll`:
 * the poll returning them, whose own holds (`holdRunForPoll`) become started runs.
 */
export function claimItems(
	workflowId: string,
	items: INodeExecutionData[],
	poll?: object,
): INodeExecutionData[] {
	const runs = runsOf(workflowId);
	const claimed = items.filter((item) => {
		const key = runKeyOf(item.json);
		if (key === undefined) return true;
		const digest = recordDigest(key);
		if (poll !== undefined && runs.held.get(digest) === poll) {
			start(runs, digest);
			return true;
		}
		return claim(runs, digest);
	});
	copyToPoll(workflowId);
	return claimed;
}

/** The list to store in static data: every started run of the workflow this process knows, oldest first. */
export function storableRuns(workflowId: string): string[] {
	return [...runsOf(workflowId).started];
}

/** Forgets every claim: tests only (a new process starts empty). */
export function forgetRunClaims(): void {
	runsByWorkflow.clear();
	pollCopies.clear();
}
