import {
	bindToken,
	bindingOf,
	fieldText,
	isCompanyId,
	tokenFinder,
	type StoredCompanyRow,
} from './partnerCompanies';

// The Partner API credential's company list as it is written back through n8n's public API (the
// connect link, Remove Company, Repair Company List): each token in its own company's row.

/** One row as the list is written back: its three fields as text (a type, so that it is an IDataObject). */
export type WrittenCompanyRow = {
	companyId: string;
	label: string;
	accessToken: string;
};

/**
 * The rows in their order, each holding the token of its own company, wherever n8n's editor had moved
 * it: what undoes a delete or reorder in the editor, except for tokens n8n dropped. `newToken` (a
 * company connected again) replaces that company's token. A row whose company has no single token keeps
 * what it holds, unless that is the token of another company of the list that now sits in its own row.
 */
export function rowsWithTheirTokens(
	stored: readonly StoredCompanyRow[],
	newToken?: { companyId: string; token: string },
): WrittenCompanyRow[] {
	const found = tokenFinder(stored);
	const listed = new Set(stored.map((row) => fieldText(row.companyId)));
	const tokenOf = (companyId: string): string | undefined => {
		if (companyId === newToken?.companyId) return newToken.token;
		const token = found(companyId);
		return token !== undefined && 'token' in token ? token.token : undefined;
	};
	return stored.map((row) => {
		const companyId = fieldText(row.companyId);
		const label = fieldText(row.label);
		const own = isCompanyId(companyId) ? tokenOf(companyId) : undefined;
		if (own !== undefined) return { companyId, label, accessToken: bindToken(companyId, own) };
		const value = fieldText(row.accessToken);
		const heldFor = bindingOf(value)?.companyId;
		const isHome = heldFor !== undefined && listed.has(heldFor) && tokenOf(heldFor) !== undefined;
		return { companyId, label, accessToken: isHome ? '' : value };
	});
}
