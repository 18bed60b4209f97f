import { isObject } from '../../shared/bodies';
import type { PayrollStatusAnswer } from '../../shared/payrollStatus';
import { readPerCompany, type PerCompany } from './companies';

// The payroll-completed state machine: pure functions from (stored state, what the API answered)
// to (next state, months to fire for). A poll that ran out of time or failed part-way still stores
// what the months that answered showed; the others keep their state for the next poll.

type PayrollStatus = 'completed' | 'not_completed';

interface MonthState {
	status: PayrollStatus;
	/**
	 * End date of the last completed run seen (a re-run changes it), kept while the month is reopened;
	 * null while the month was never seen completed. A completed answer without a date is stored as ''.
	 * Compared as instants: `…00.000Z` and `…00Z` are the same run.
	 */
	executionEndDate: string | null;
}

/** What the trigger knows of one company. Edits of the node never reset it. */
export interface CompanyPayrollState {
	/** Last known state of the months watched at the last successful poll (bounded). */
	months: Record<string, MonthState>;
	/**
	 * Months that fired, with the end date of their last fired run, at most FIRED_MEMORY (the newest
	 * months): no edit, re-selection or company switch makes a run fire twice.
	 */
	fired: Record<string, string>;
	/** The Months rule of the last complete poll ('both', 'current', 'previous', 'specific'; '' if none). */
	selection: string;
	/** The current month (in the workflow time zone) at the last complete poll ('' if none). */
	lastPolledMonth: string;
	/** Months the last poll did not get an answer for, asked first by the next one (a slow service still gets through them all). */
	pending?: string[];
	/** Those of `pending` that the calendar had brought in: they still fire as news when they answer. */
	pendingNews?: string[];
}

/** The stored state of the Payroll Completed event: per company, so a company switch loses nothing. */
export type PayrollState = PerCompany<CompanyPayrollState>;

export const FIRED_MEMORY = 24;

interface PayrollTransition {
	month: string;
	status: PayrollStatus;
	executionEndDate: string | null;
	isRerun: boolean;
}

interface PayrollFireOptions {
	/** Fire for months already completed when first seen (first activation or newly selected months). */
	fireForAlreadyCompleted: boolean;
	/** Fire only for a month's first completion: a new end date of a month seen completed fires nothing. */
	firstCompletionOnly: boolean;
}

/** Two end dates name the same run when they are the same instant; unreadable ones compare as text. */
export function sameRun(a: string | null, b: string | null): boolean {
	if (a === b) return true;
	if (a === null || b === null) return false;
	const [timeA, timeB] = [Date.parse(a), Date.parse(b)];
	return !Number.isNaN(timeA) && timeA === timeB;
}

function isMonthState(value: unknown): value is MonthState {
	const state = value as MonthState;
	return (
		typeof value === 'object' &&
		value !== null &&
		(state.status === 'completed' || state.status === 'not_completed') &&
		(state.executionEndDate === null || typeof state.executionEndDate === 'string')
	);
}

function isMonthStates(value: unknown): value is Record<string, MonthState> {
	return typeof value === 'object' && value !== null && Object.values(value).every(isMonthState);
}

function isCompanyState(value: unknown): value is CompanyPayrollState {
	const state = value as CompanyPayrollState;
	return (
		typeof value === 'object' &&
		value !== null &&
		isMonthStates(state.months) &&
		isObject(state.fired) &&
		typeof state.selection === 'string' &&
		typeof state.lastPolledMonth === 'string' &&
		(state.pending === undefined || Array.isArray(state.pending)) &&
		(state.pendingNews === undefined || Array.isArray(state.pendingNews))
	);
}

/** The stored state if it has the expected shape; anything else counts as no state (first poll). */
export function readPayrollState(value: unknown): PayrollState | undefined {
	return readPerCompany(value, isCompanyState);
}

/**
 * One month: its next state and what this answer is. `firstSight`: no state yet and completed, so
 * when it completed is unknown. `completed`: never seen completed before, completed now. `newRun`: a
 * month seen completed before ends with another end date, whether or not a poll saw it reopened in
 * between (both changes can fall between two polls): the same history gives the same answer
 * whatever the poll times.
 */
export function observeMonth(
	previous: MonthState | undefined,
	answer: PayrollStatusAnswer,
): { state: MonthState; change?: 'firstSight' | 'completed' | 'newRun' } {
	if (answer.status !== 'completed') {
		return {
			state: { status: 'not_completed', executionEndDate: previous?.executionEndDate ?? null },
		};
	}
	const state: MonthState = {
		status: 'completed',
		executionEndDate: answer.executionEndDate ?? '',
	};
	if (!previous) return { state, change: 'firstSight' };
	if (previous.executionEndDate === null) return { state, change: 'completed' };
	return sameRun(previous.executionEndDate, state.executionEndDate)
		? { state: previous.status === 'completed' ? previous : state }
		: { state, change: 'newRun' };
}

/**
 * Applies one poll's answers to what is known of the company. `poll.unanswered`: watched months
 * whose request did not get an answer (time ran out, the service failed); they keep their state and
 * become `pending`: the next poll asks them first, as news if they were news in this poll.
 *
 * A first completion fires, and so does every new end date of a month seen completed (a re-run, or
 * a reopening and completion, seen or not), unless `firstCompletionOnly`. A month first seen
 * completed is a baseline (recorded, not fired) unless the calendar brought it in (`poll.news`) or
 * the option asks for it. The fired memory keeps each month's last fired run: that run never fires
 * again, whatever edit, re-selection or company switch brings the month back; another run of it
 * does. `isRerun`: the month fired before.
 */
export function advancePayrollState(
	stored: CompanyPayrollState | undefined,
	poll: {
		selection: string;
		currentMonth: string;
		news: string[];
		/** In the order they were planned: the next poll asks them first, in that order. */
		unanswered?: string[];
	},
	answers: Record<string, PayrollStatusAnswer>,
	options: PayrollFireOptions,
): { state: CompanyPayrollState; transitions: PayrollTransition[] } {
	const months: Record<string, MonthState> = {};
	for (const month of poll.unanswered ?? []) {
		if (stored?.months[month]) months[month] = stored.months[month];
	}
	const transitions: PayrollTransition[] = [];
	const fired = { ...(stored?.fired ?? {}) };
	for (const month of Object.keys(answers).sort()) {
		const { state, change } = observeMonth(stored?.months[month], answers[month]);
		months[month] = state;
		const lastFiredRun = fired[month];
		const firedBefore = lastFiredRun !== undefined;
		const fire =
			!(firedBefore && sameRun(lastFiredRun, state.executionEndDate)) &&
			((change === 'completed' && !(options.firstCompletionOnly && firedBefore)) ||
				(change === 'newRun' && !options.firstCompletionOnly) ||
				(change === 'firstSight' &&
					(firedBefore
						? !options.firstCompletionOnly
						: poll.news.includes(month) || options.fireForAlreadyCompleted)));
		if (!fire) continue;
		transitions.push({
			month,
			status: state.status,
			executionEndDate: answers[month].executionEndDate,
			isRerun: firedBefore,
		});
		fired[month] = state.executionEndDate ?? '';
	}
	const unanswered = poll.unanswered ?? [];
	// Always the current month, even when a time zone edit moved it back: the selection stored with it
	// may watch other months than the last one did, and a month that was not watched would then never be
	// caught up. A month the last poll watched may be caught up again as news; its fired run never
	// fires twice (the fired memory), and its waiting state is kept (planPoll).
	const lastPolledMonth = poll.currentMonth;
	return {
		state: {
			months,
			fired: Object.fromEntries(
				Object.entries(fired)
					.sort(([a], [b]) => a.localeCompare(b))
					.slice(-FIRED_MEMORY),
			),
			selection: poll.selection,
			lastPolledMonth,
			...(unanswered.length
				? {
						pending: unanswered,
						pendingNews: unanswered.filter((month) => poll.news.includes(month)),
					}
				: {}),
		},
		transitions,
	};
}

/** "Fetch Test Event": the latest completed month, if any is. */
export function sampleMonth(answers: Record<string, PayrollStatusAnswer>): string | undefined {
	const months = Object.keys(answers).sort().reverse();
	return months.find((month) => answers[month].status === 'completed');
}
