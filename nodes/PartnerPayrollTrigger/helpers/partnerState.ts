import { isObject } from '../../shared/bodies';

// What the trigger keeps about the companies of the Partner API credential, beside each event's
// per-company state: ids, country codes, dates and reasons in words; never a token.

export interface PartnerState {
	/** Companies whose connection is lost (reported once), with the reason. */
	lost: Record<string, string>;
	/** Each company's country, from one company lookup (New Document watches GB companies only). */
	countries: Record<string, string>;
	/** Companies no longer watched (removed from the credential or the selection), since when (ISO). */
	removedSince: Record<string, string>;
	/** Companies the last poll did not reach in its time: the next poll checks them first. */
	notReached: string[];
}

/**
 * The state of a company no longer watched is kept this long, then dropped. A row cleared by mistake,
 * or a company unselected for a few days, comes back within it where it left off: the months it
 * missed still fire, nothing fires twice. Seven days cover a week of holidays; after that the company
 * starts again with a baseline, like a new one.
 */
export const REMOVED_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

const isTextRecord = (value: unknown): value is Record<string, string> =>
	isObject(value) && Object.values(value).every((entry) => typeof entry === 'string');

/** The stored partner state, or an empty one when there is none or it has another shape. */
export function readPartnerState(value: unknown): PartnerState {
	const stored = value as Partial<PartnerState> | undefined;
	if (
		!isObject(stored) ||
		!isTextRecord(stored.lost) ||
		!isTextRecord(stored.countries) ||
		!isTextRecord(stored.removedSince) ||
		!Array.isArray(stored.notReached)
	) {
		return { lost: {}, countries: {}, removedSince: {}, notReached: [] };
	}
	return stored as PartnerState;
}

/** The watched companies in the order a poll checks them: those the last poll did not reach first. */
export function pollOrder(watched: string[], notReached: string[]): string[] {
	const first = notReached.filter((companyId) => watched.includes(companyId));
	return [...first, ...watched.filter((companyId) => !first.includes(companyId))];
}

/**
 * The companies known to the state but no longer watched: each gets its removal date when first
 * missed; those missed for longer than REMOVED_RETENTION_MS are to be forgotten. A watched company
 * loses its removal date.
 */
export function removedCompanies(
	state: PartnerState,
	known: string[],
	watched: string[],
	now: number,
): { removedSince: Record<string, string>; forget: Set<string> } {
	const removedSince: Record<string, string> = {};
	const forget = new Set<string>();
	for (const companyId of new Set(known)) {
		if (watched.includes(companyId)) continue;
		const since = state.removedSince[companyId] ?? new Date(now).toISOString();
		if (now - Date.parse(since) > REMOVED_RETENTION_MS) forget.add(companyId);
		else removedSince[companyId] = since;
	}
	return { removedSince, forget };
}

/** A record without the forgotten companies. */
export function without<T>(record: Record<string, T>, forget: Set<string>): Record<string, T> {
	return Object.fromEntries(Object.entries(record).filter(([companyId]) => !forget.has(companyId)));
}
