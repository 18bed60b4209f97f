import { MAX_CARRY_OVER_MONTHS, addMonths } from './months';

// The payroll-completed state machine: pure functions from (stored state, what the API answered)
// to (next state, months to fire for). The trigger stores the result only after a fully successful poll.

type PayrollStatus = 'completed' | 'not_completed';

/** A payroll-status answer of the API. */
export interface PayrollStatusAnswer {
	status: string;
	executionEndDate: string | null;
}

interface MonthState {
	status: PayrollStatus;
	/**
	 * End date of the last completed run seen (a re-run changes it), kept while the month is reopened;
	 * null while the month was never seen completed. A completed answer without a date is stored as ''.
	 */
	executionEndDate: string | null;
}

/** What the trigger knows of one company. Edits of the node never reset it. */
export interface CompanyPayrollState {
	/** Last known state of the months watched at the last successful poll (bounded). */
	months: Record<string, MonthState>;
	/** Months that fired, oldest first, at most FIRED_MEMORY: no edit can make them fire again. */
	fired: string[];
	/** The Months rule of the last successful poll ('both', 'current', 'previous' or 'specific'). */
	selection: string;
	/** The current month (in the workflow time zone) at the last successful poll. */
	lastPolledMonth: string;
}

/** The stored state of the Payroll Completed event: per company, so a company switch loses nothing. */
export interface PayrollState {
	companies: Record<string, CompanyPayrollState>;
}

export const FIRED_MEMORY = 24;
export const MAX_COMPANIES = 10;

interface PayrollTransition {
	month: string;
	status: PayrollStatus;
	executionEndDate: string | null;
	isRerun: boolean;
}

interface PayrollFireOptions {
	/** Fire for months already completed when first seen (first activation or newly selected months). */
	fireForAlreadyCompleted: boolean;
	/** Fire again when a completed month's executionEndDate changes without a reopening. */
	fireOnRerun: boolean;
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
		Array.isArray(state.fired) &&
		typeof state.selection === 'string' &&
		typeof state.lastPolledMonth === 'string'
	);
}

/** The stored state if it has the expected shape; anything else counts as no state (first poll). */
export function readPayrollState(value: unknown): PayrollState | undefined {
	const state = value as PayrollState;
	if (
		typeof value !== 'object' ||
		value === null ||
		typeof state.companies !== 'object' ||
		state.companies === null ||
		!Object.values(state.companies).every(isCompanyState)
	) {
		return undefined;
	}
	return state;
}

/** Months that were watched and have not completed: they stay watched after the calendar moves on. */
export function unfinishedMonths(state: CompanyPayrollState | undefined): string[] {
	return Object.entries(state?.months ?? {})
		.filter(([, month]) => month.status !== 'completed')
		.map(([month]) => month);
}

/** The months to ask about in a poll, and which of them the calendar (not an edit) brought in. */
interface PollPlan {
	watched: string[];
	news: string[];
}

const isRelative = (selection: string) => ['both', 'current', 'previous'].includes(selection);

/** The newest month a relative selection watched when the current month was `currentMonth`. */
const newestWatched = (selection: string, currentMonth: string) =>
	selection === 'previous' ? addMonths(currentMonth, -1) : currentMonth;

/** Months strictly between two months, oldest first. */
function monthsBetween(after: string, before: string): string[] {
	const months: string[] = [];
	for (let month = addMonths(after, 1); month < before; month = addMonths(month, 1)) {
		months.push(month);
	}
	return months;
}

/**
 * What a poll watches: the selected months; the months still waiting (whatever the selection or
 * time zone became); and, for relative selections, the months the window passed over since the
 * last successful poll of this company (an outage or a deactivation across a month boundary). All
 * within MAX_CARRY_OVER_MONTHS.
 * A month is news when the calendar brought it in: caught up, or in an unchanged selection.
 */
export function planPoll(
	stored: CompanyPayrollState | undefined,
	selection: string,
	selected: string[],
	currentMonth: string,
): PollPlan {
	if (!stored) return { watched: selected, news: [] };
	const oldestKept = addMonths(currentMonth, -MAX_CARRY_OVER_MONTHS);
	const caughtUp =
		isRelative(selection) && isRelative(stored.selection) && stored.lastPolledMonth
			? monthsBetween(newestWatched(stored.selection, stored.lastPolledMonth), selected[0])
			: [];
	const carried = [...unfinishedMonths(stored), ...caughtUp].filter(
		(month) => month >= oldestKept && month <= currentMonth,
	);
	return {
		watched: [...new Set([...carried, ...selected])].sort(),
		news: [
			...caughtUp.filter((month) => month >= oldestKept),
			...(stored.selection === selection && selection !== 'specific' ? selected : []),
		],
	};
}

/**
 * One month: its next state and what this answer is. `firstSight`: no state yet and completed, so
 * when it completed is unknown. `switched`: seen not completed, now completed; an observed switch,
 * including a month reopened then completed again. `rerun`: a completed month's run ended again (a
 * new executionEndDate without a `not_completed` answer in between).
 */
export function observeMonth(
	previous: MonthState | undefined,
	answer: PayrollStatusAnswer,
): { state: MonthState; change?: 'firstSight' | 'switched' | 'rerun' } {
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
	if (previous.status === 'not_completed') return { state, change: 'switched' };
	return previous.executionEndDate === state.executionEndDate
		? { state }
		: { state, change: 'rerun' };
}

/**
 * Applies one poll's answers (one per watched month) to what is known of the company.
 *
 * An observed switch to completed always fires: it is the event. A month first seen completed is a
 * baseline (recorded, not fired) unless the calendar brought it in (`poll.news`) or the option asks
 * for it, and never fires when the fired memory has it: no edit, re-selection or company switch
 * repeats a month. A re-run fires only with the option. `isRerun`: the month fired before.
 */
export function advancePayrollState(
	stored: CompanyPayrollState | undefined,
	poll: { selection: string; currentMonth: string; news: string[] },
	answers: Record<string, PayrollStatusAnswer>,
	options: PayrollFireOptions,
): { state: CompanyPayrollState; transitions: PayrollTransition[] } {
	const months: Record<string, MonthState> = {};
	const transitions: PayrollTransition[] = [];
	const fired = [...(stored?.fired ?? [])];
	for (const month of Object.keys(answers).sort()) {
		const { state, change } = observeMonth(stored?.months[month], answers[month]);
		months[month] = state;
		const firedBefore = fired.includes(month);
		const fire =
			change === 'switched' ||
			(change === 'rerun' && options.fireOnRerun) ||
			(change === 'firstSight' &&
				!firedBefore &&
				(poll.news.includes(month) || options.fireForAlreadyCompleted));
		if (!fire) continue;
		transitions.push({
			month,
			status: state.status,
			executionEndDate: answers[month].executionEndDate,
			isRerun: firedBefore,
		});
		if (!firedBefore) fired.push(month);
	}
	const lastPolledMonth =
		stored?.lastPolledMonth && stored.lastPolledMonth > poll.currentMonth
			? stored.lastPolledMonth
			: poll.currentMonth;
	return {
		state: {
			months,
			fired: fired.sort().slice(-FIRED_MEMORY),
			selection: poll.selection,
			lastPolledMonth,
		},
		transitions,
	};
}

/** The event's state with one company's part replaced, at most MAX_COMPANIES kept (newest last). */
export function withCompanyState(
	stored: PayrollState | undefined,
	companyId: string,
	companyState: CompanyPayrollState,
): PayrollState {
	const others = Object.entries(stored?.companies ?? {}).filter(([id]) => id !== companyId);
	return {
		companies: Object.fromEntries([
			...others.slice(-(MAX_COMPANIES - 1)),
			[companyId, companyState],
		]),
	};
}

/** "Fetch Test Event": the latest completed month, if any is. */
export function sampleMonth(answers: Record<string, PayrollStatusAnswer>): string | undefined {
	const months = Object.keys(answers).sort().reverse();
	return months.find((month) => answers[month].status === 'completed');
}
