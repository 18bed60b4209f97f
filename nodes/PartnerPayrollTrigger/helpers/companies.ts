// Both events keep what they know per company, so switching the company and back repeats nothing.
// Recency is a list of its own: the key order of a stored object puts integer-like ids first.

/**
 * Companies kept with a per-company credential (one company per poll, switched by editing Company
 * ID). With the Partner API credential the credential's list is the bound instead (partnerState.ts).
 */
export const MAX_COMPANIES = 10;

/** One event's stored state: each company's part, and the companies from least to most recently polled. */
export interface PerCompany<T> {
	companies: Record<string, T>;
	recent: string[];
}

/** The stored state if it has the expected shape; anything else counts as no state (first poll). */
export function readPerCompany<T>(
	value: unknown,
	isCompanyState: (state: unknown) => state is T,
): PerCompany<T> | undefined {
	const stored = value as PerCompany<T> | null | undefined;
	if (
		typeof stored?.companies !== 'object' ||
		stored.companies === null ||
		!Array.isArray(stored.recent) ||
		!stored.recent.every((id) => typeof id === 'string' && id in stored.companies) ||
		!Object.values(stored.companies).every(isCompanyState)
	) {
		return undefined;
	}
	return stored;
}

/** The state with one company's part replaced and made the most recent; the least recent beyond MAX_COMPANIES go. */
export function withCompanyState<T>(
	stored: PerCompany<T> | undefined,
	companyId: string,
	companyState: T,
): PerCompany<T> {
	const recent = [...(stored?.recent ?? []).filter((id) => id !== companyId), companyId].slice(
		-MAX_COMPANIES,
	);
	const companies: Record<string, T> = {};
	for (const id of recent) {
		companies[id] = id === companyId ? companyState : stored!.companies[id];
	}
	return { companies, recent };
}

/**
 * The state with the parts of many companies replaced (made the most recent, in the given order) and
 * the companies of `forget` dropped: a poll over the Partner API credential's companies, bounded by
 * the list itself rather than by MAX_COMPANIES.
 */
export function withCompanyStates<T>(
	stored: PerCompany<T> | undefined,
	updates: Map<string, T>,
	forget: Set<string> = new Set(),
): PerCompany<T> {
	const recent = [
		...(stored?.recent ?? []).filter((id) => !updates.has(id) && !forget.has(id)),
		...[...updates.keys()].filter((id) => !forget.has(id)),
	];
	const companies: Record<string, T> = {};
	for (const id of recent) companies[id] = updates.get(id) ?? stored!.companies[id];
	return { companies, recent };
}
