import { MAX_CARRY_OVER_MONTHS, addMonths } from '../../shared/watchedMonths';
import type { CompanyPayrollState } from './payrollState';

// What a poll of the Payroll Completed event asks the service about, from what is stored of the
// company: the selected months, the months still waiting, and the months an outage passed over.

/** Months that were watched and have not completed: they stay watched after the calendar moves on. */
export function unfinishedMonths(state: CompanyPayrollState | undefined): string[] {
	return Object.entries(state?.months ?? {})
		.filter(([, month]) => month.status !== 'completed')
		.map(([month]) => month);
}

/** The months to ask about in a poll, and which of them the calendar (not an edit) brought in. */
interface PollPlan {
	/** The months left by a poll that stopped part-way first, then the selected ones (a failure that concerns every month shows there), then the carried ones. */
	watched: string[];
	news: string[];
	/** Watched only because they were left unfinished or passed over: a 4xx about one drops it. */
	carried: string[];
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

/** The newest month the last complete poll watched, by its selection: what the catch-up starts after. */
const newestPolled = (stored: CompanyPayrollState) =>
	isRelative(stored.selection)
		? newestWatched(stored.selection, stored.lastPolledMonth)
		: stored.lastPolledMonth;

/**
 * A stored month that no time zone edit explains (one moves the current month by one at most): a poll
 * whose clock was set ahead wrote it (a VM resumed with a wrong clock, a bad NTP step). The poll stores
 * the current month in its place, as always; the log says why this poll caught nothing up.
 */
export const isAheadOfClock = (stored: CompanyPayrollState, currentMonth: string) =>
	newestPolled(stored) > addMonths(currentMonth, 1);

/**
 * The month after the current one, when the last complete poll's relative selection watched it: a time
 * zone edit moved the current month back. Its waiting state is kept (not dropped as a future month).
 */
function watchedAhead(
	stored: CompanyPayrollState | undefined,
	currentMonth: string,
): string | undefined {
	if (!stored?.lastPolledMonth || !isRelative(stored.selection)) return undefined;
	const newest = newestPolled(stored);
	return newest === addMonths(currentMonth, 1) ? newest : undefined;
}

/**
 * What a poll watches: the selected months; the months still waiting (whatever the selection or
 * time zone became); and, when the last complete poll of this company had a relative selection, the
 * months that selection would have watched since (an outage or a deactivation across a month
 * boundary), up to today, whatever the selection is now. All within MAX_CARRY_OVER_MONTHS.
 * A month is news when the calendar brought it in: caught up, or in an unchanged selection.
 */
export function planPoll(
	stored: CompanyPayrollState | undefined,
	selection: string,
	selected: string[],
	currentMonth: string,
): PollPlan {
	if (!stored) return { watched: selected, news: [], carried: [] };
	const oldestKept = addMonths(currentMonth, -MAX_CARRY_OVER_MONTHS);
	// Up to the month the last poll watched: after a time zone edit moved the current month back, that
	// month is not selected now, and it is caught up only once the calendar reaches it again; dropped
	// here, its completion during an outage before then would never fire.
	const newestKept = watchedAhead(stored, currentMonth) ?? currentMonth;
	const caughtUp =
		isRelative(stored.selection) && stored.lastPolledMonth
			? monthsBetween(
					newestPolled(stored),
					addMonths(newestWatched(stored.selection, currentMonth), 1),
				)
			: [];
	const carried = [...new Set([...unfinishedMonths(stored), ...caughtUp])]
		.filter((month) => month >= oldestKept && month <= newestKept && !selected.includes(month))
		.sort();
	const pending = (stored.pending ?? []).filter(
		(month) => month >= oldestKept && month <= newestKept,
	);
	const pendingNews = stored.pendingNews ?? [];
	// A month a poll never got an answer for is still a first sight, news only if it was news then.
	const pendingBaseline = pending.filter((month) => !pendingNews.includes(month));
	const watched = [...new Set([...pending, ...selected, ...carried])];
	return {
		watched,
		news: [
			...new Set([
				...caughtUp.filter((month) => month >= oldestKept),
				...(stored.selection === selection && selection !== 'specific' ? selected : []),
				...pending.filter((month) => pendingNews.includes(month)),
			]),
		].filter((month) => !pendingBaseline.includes(month)),
		carried: watched.filter((month) => !selected.includes(month)),
	};
}
