import { releasePollHolds } from '../../shared/runClaims';
import { POLL_BUDGET_MS, type PollBudget } from './pollBudget';

// What this n8n process knows of each active trigger (workflow + node), kept in memory only.

// n8n quirk Q1: docs/n8n-quirks.md
// The static data object of the newest activation of each trigger. n8n (ActiveWorkflowManager.add)
// builds a new Workflow, so a new static data object, from the database at every activation:
// publish, reactivation, restart. Removing the old activation only stops its schedule; a poll of it
// that is still waiting for the API goes on, and must then drop its result: the newer activation
// started from the stored state and fires the same transitions itself.
const newestActivation = new Map<string, object>();
// The order in which this process first saw each activation: a poll of an older activation that
// starts after a newer one polled must not make the older one current again.
const firstSeen = new WeakMap<object, number>();
let activationsSeen = 0;

/** A running poll of one activation; the runs it holds are held in its budget's name (runClaims.ts). */
export interface PollTicket {
	activation: object;
	workflowId: string;
	budget: PollBudget;
	startedAt: number;
}

// n8n quirk Q2: docs/n8n-quirks.md
// n8n starts a scheduled poll even while the previous one still runs; the later one would fire the
// same transitions. A poll older than twice its budget is given up (it may never settle).
const runningPoll = new Map<string, PollTicket>();
const GIVE_UP_AFTER_MS = 2 * POLL_BUDGET_MS;

// When each trigger last made a failed poll an error execution.
const lastReportedFailure = new Map<string, number>();
/** While the service keeps failing, a failed poll becomes an error execution at most this often. */
export const FAILURE_REPORT_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Called before the poll's first await: from then on, older activations' polls drop their results.
 * A new activation (publish, restart) reports its first failure at once.
 */
export function registerActivation(trigger: string, activation: object): void {
	if (!firstSeen.has(activation)) firstSeen.set(activation, ++activationsSeen);
	const newest = newestActivation.get(trigger);
	if (newest === activation || (newest && firstSeen.get(newest)! > firstSeen.get(activation)!)) {
		return;
	}
	newestActivation.set(trigger, activation);
	lastReportedFailure.delete(trigger);
}

/** A ticket for a new poll, or `undefined` when the previous poll of this activation still runs. */
export function startPoll(
	trigger: string,
	poll: Omit<PollTicket, 'startedAt'>,
	onGiveUp: (ageMs: number) => void,
): PollTicket | undefined {
	const running = runningPoll.get(trigger);
	const now = Date.now();
	if (running?.activation === poll.activation) {
		if (now - running.startedAt < GIVE_UP_AFTER_MS) return undefined;
		onGiveUp(now - running.startedAt);
	}
	// A poll still running (given up, or of an older activation) drops its result from now on and
	// may never settle: the runs it holds are given back now.
	if (running) releasePollHolds(running.workflowId, running.budget);
	const ticket = { ...poll, startedAt: now };
	runningPoll.set(trigger, ticket);
	return ticket;
}

/** Whether a poll may still store state and fire: no newer activation, no newer poll. */
export function isCurrentPoll(trigger: string, ticket: PollTicket): boolean {
	return newestActivation.get(trigger) === ticket.activation && runningPoll.get(trigger) === ticket;
}

export function endPoll(trigger: string, ticket: PollTicket): void {
	if (runningPoll.get(trigger) === ticket) runningPoll.delete(trigger);
}

/** Whether a failed poll becomes an error execution: the first of an outage, then at most hourly. */
export function reportsFailure(trigger: string): boolean {
	const now = Date.now();
	const last = lastReportedFailure.get(trigger);
	if (last !== undefined && now - last < FAILURE_REPORT_INTERVAL_MS && now >= last) return false;
	lastReportedFailure.set(trigger, now);
	return true;
}

/** A poll that succeeded ends the outage: the next failure is reported at once. */
export function endOutage(trigger: string): void {
	lastReportedFailure.delete(trigger);
}
