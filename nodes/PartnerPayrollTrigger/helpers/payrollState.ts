// The payroll-completed state machine: pure functions from (stored state, what the API answered)
// to (next state, months to fire for). The trigger stores the result only after a fully successful poll.

export type PayrollStatus = 'completed' | 'not_completed';

/** A payroll-status answer of the API. */
export interface PayrollStatusAnswer {
	status: string;
	executionEndDate: string | null;
}

export interface MonthState {
	status: PayrollStatus;
	/**
	 * End date of the last completed run seen, kept while the month reads `not_completed` again
	 * (payroll reopened), so a run is recognised as a re-run; null while the month never completed.
	 * A completed answer without a date is stored as ''.
	 */
	executionEndDate: string | null;
}

export interface PayrollState {
	/** The state describes this company only; another company starts from a new baseline. */
	companyId: string;
	/** Fingerprint of the month selection (see `watchKey`). */
	watch: string;
	/** One entry per watched month of the last successful poll, nothing else (bounded). */
	months: Record<string, MonthState>;
}

export interface PayrollTransition {
	month: string;
	status: PayrollStatus;
	executionEndDate: string | null;
	isRerun: boolean;
}

export interface PayrollFireOptions {
	/** Fire for months already completed when first seen (first activation or newly selected months). */
	fireForAlreadyCompleted: boolean;
	/** Fire again when a completed month's executionEndDate changes without a reopening. */
	fireOnRerun: boolean;
}

/**
 * Relative selections move with the calendar, so their key holds the rule and the time zone, not
 * the months. Specific months are the key themselves.
 */
export function watchKey(selection: string, timeZone: string, specificMonths: string[]): string {
	return selection === 'specific'
		? `specific:${specificMonths.join(',')}`
		: `${selection}@${timeZone}`;
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

/** The stored state if it has the expected shape; anything else counts as no state (first poll). */
export function readPayrollState(value: unknown): PayrollState | undefined {
	const state = value as PayrollState;
	if (
		typeof value !== 'object' ||
		value === null ||
		typeof state.companyId !== 'string' ||
		typeof state.watch !== 'string' ||
		typeof state.months !== 'object' ||
		state.months === null ||
		!Object.values(state.months).every(isMonthState)
	) {
		return undefined;
	}
	return state;
}

/** Months that were watched and have not completed: they stay watched after the calendar moves on. */
export function unfinishedMonths(state: PayrollState | undefined): string[] {
	return Object.entries(state?.months ?? {})
		.filter(([, month]) => month.status !== 'completed')
		.map(([month]) => month);
}

/**
 * One month: its next state and what this answer is. `completed`: a first completion. `reopened`: a
 * month seen completed, then not completed, is completed again, which is always news. `rerun`: a
 * completed month's run ended again (a new executionEndDate without a reopening in between).
 */
export function observeMonth(
	previous: MonthState | undefined,
	answer: PayrollStatusAnswer,
): { state: MonthState; change?: 'completed' | 'reopened' | 'rerun' } {
	if (answer.status !== 'completed') {
		return {
			state: { status: 'not_completed', executionEndDate: previous?.executionEndDate ?? null },
		};
	}
	const executionEndDate = answer.executionEndDate ?? '';
	const state: MonthState = { status: 'completed', executionEndDate };
	const lastRun = previous?.executionEndDate ?? null;
	if (lastRun === null) return { state, change: 'completed' };
	if (previous?.status === 'not_completed') return { state, change: 'reopened' };
	return lastRun === executionEndDate ? { state } : { state, change: 'rerun' };
}

/**
 * Applies one poll's answers (one per watched month) to the stored state.
 *
 * A month without stored state is a baseline when the trigger starts afresh (no state, another
 * company) or when the user changed the selection; it is not when the calendar brought it into an
 * unchanged selection (e.g. the month that just became "previous"): its completion is news.
 */
export function advancePayrollState(
	stored: PayrollState | undefined,
	current: { companyId: string; watch: string },
	answers: Record<string, PayrollStatusAnswer>,
	options: PayrollFireOptions,
): { state: PayrollState; transitions: PayrollTransition[] } {
	const known = stored?.companyId === current.companyId ? stored : undefined;
	const months: Record<string, MonthState> = {};
	const transitions: PayrollTransition[] = [];
	for (const month of Object.keys(answers).sort()) {
		const previous = known?.months[month];
		const isBaseline = !known || (known.watch !== current.watch && !previous);
		const { state, change } = observeMonth(previous, answers[month]);
		months[month] = state;
		const fire =
			(change === 'completed' && (!isBaseline || options.fireForAlreadyCompleted)) ||
			change === 'reopened' ||
			(change === 'rerun' && options.fireOnRerun);
		if (fire) {
			transitions.push({
				month,
				status: state.status,
				executionEndDate: answers[month].executionEndDate,
				isRerun: change !== 'completed',
			});
		}
	}
	return { state: { companyId: current.companyId, watch: current.watch, months }, transitions };
}

/** "Fetch Test Event": the latest completed month, or the latest month when none is completed. */
export function sampleMonth(answers: Record<string, PayrollStatusAnswer>): string | undefined {
	const months = Object.keys(answers).sort().reverse();
	return months.find((month) => answers[month].status === 'completed') ?? months[0];
}
