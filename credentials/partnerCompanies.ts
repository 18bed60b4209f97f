import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/**
 * The company list of the Partner Payroll Partner API credential: one row per client company, each with
 * the access token the service gave for that company. Read by the credential (which token a request
 * carries), by the nodes (the Company list) and by the triggers (which companies to watch).
 *
 * Each token is stored bound to its company, as `<company ID>:<token>`. n8n gives a masked password back
 * to its row by position when the list is saved from the editor, so deleting or reordering a row moves
 * tokens to other rows (and drops the last rows' tokens when a row was deleted). A token still says
 * whose it is, so each company's token is found by its binding, in whichever row it sits: an edit
 * breaks only the companies whose token n8n really dropped, and a token never serves another company.
 */

export interface PartnerCompany {
	companyId: string;
	label: string;
	/** The token alone, without its binding prefix. */
	accessToken: string;
}

/** One row as n8n stores it (fixedCollection `companies`, option `company`). */
export interface StoredCompanyRow {
	companyId?: unknown;
	label?: unknown;
	accessToken?: unknown;
}

/** The same shape as the service's company ids and the nodes' Company ID check. */
const COMPANY_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether `value` has the shape of the service's company ids (what a row of the list may hold). */
export const isCompanyId = (value: string) => COMPANY_ID.test(value);

/**
 * Characters a label may not hold: control, format (bidi overrides, zero-width), private-use and
 * unassigned ones, and the line and paragraph separators. They can make one company's row read as another's.
 */
const HIDDEN_OR_CONTROL = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\u2028\u2029]/u;

/** The first character of `label` that a label may not hold, as U+XXXX, or undefined when there is none. */
export function forbiddenLabelCharacter(label: string): string | undefined {
	const found = HIDDEN_OR_CONTROL.exec(label)?.[0];
	return found === undefined
		? undefined
		: `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

export class CompanyListError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'CompanyListError';
	}
}

// n8n quirk Q8: docs/n8n-quirks.md
/** `<company ID>:<token>`, the value the Access Token field stores for a company. */
export function bindToken(companyId: string, token: string): string {
	return `${companyId}:${token}`;
}

/** How a row is named in messages: its position, its company and its label. */
function describeRow(position: number, companyId: string, label: string): string {
	const who = companyId ? ` (${companyId}${label ? `, ${label}` : ''})` : '';
	return `entry ${position}${who}`;
}

/** A field of a stored row as text: n8n may keep a value of another type, or none. */
export function fieldText(value: unknown): string {
	return typeof value === 'string'
		? value
		: value === undefined || value === null
			? ''
			: String(value);
}

/** The rows as stored, whatever n8n kept of the fixedCollection (absent, empty, one row or many). */
export function storedRows(credentials: ICredentialDataDecryptedObject): StoredCompanyRow[] {
	const collection = credentials.companies as { company?: unknown } | undefined;
	const rows = collection?.company;
	if (rows === undefined || rows === null) return [];
	return (Array.isArray(rows) ? rows : [rows]) as StoredCompanyRow[];
}

/** A row of the list as read: a usable company, or the problem that keeps it from serving requests. */
export interface CompanyRow {
	position: number;
	companyId: string;
	label: string;
	/** The token alone, when the row is usable. */
	accessToken?: string;
	/** Why the row cannot serve requests, naming the entry and how to repair it. */
	problem?: string;
}

/** What is wrong with one row's company ID and label, and the spaces of any field, or undefined. */
function rowProblem(
	entry: string,
	companyId: string,
	label: string,
	stored: string,
): string | undefined {
	if (companyId.trim() === '') return `The company list's ${entry} has no Company ID.`;
	for (const [field, value] of [
		['Company ID', companyId],
		['Label', label],
		['Access Token', stored],
	]) {
		if (value !== value.trim())
			return `The company list's ${entry}: its ${field} starts or ends with spaces. Remove them.`;
	}
	const hidden = forbiddenLabelCharacter(label);
	if (hidden) {
		return `The company list's ${entry}: its Label holds a control or invisible character (${hidden}). Retype the label.`;
	}
	if (!COMPANY_ID.test(companyId)) {
		return `The company list's ${entry}: Company ID "${companyId}" is not a company ID (letters, digits, "-" and "_", up to 64).`;
	}
	return undefined;
}

/** The company an Access Token value is bound to, and the token alone; undefined when it is not bound. */
export function bindingOf(stored: string): { companyId: string; token: string } | undefined {
	const colon = stored.indexOf(':');
	const companyId = stored.slice(0, Math.max(colon, 0));
	if (!COMPANY_ID.test(companyId) || colon === stored.length - 1 || stored !== stored.trim()) {
		return undefined;
	}
	return { companyId, token: stored.slice(colon + 1) };
}

/** The list as read: its rows in order, and each company's row by id. */
export interface CompanyIndex {
	rows: readonly CompanyRow[];
	byId: ReadonlyMap<string, CompanyRow>;
}

/** Each credential value's list, read once: every request of an execution looks its company up here. */
const indexes = new WeakMap<object, CompanyIndex>();

/**
 * Every row read and checked: a company ID of the service's shape, no duplicate ids, no whitespace
 * around values, and each company's token found by its binding (`<company ID>:<token>`) in whichever
 * row n8n's editor left it. A row with a problem keeps only its problem, so one broken row never stops
 * the other companies. Read once per value of the credential's list.
 */
export function readCompanyIndex(credentials: ICredentialDataDecryptedObject): CompanyIndex {
	const key = credentials.companies;
	const known = typeof key === 'object' && key !== null ? indexes.get(key) : undefined;
	if (known) return known;
	const index = indexOf(readRows(storedRows(credentials)));
	if (typeof key === 'object' && key !== null) indexes.set(key, index);
	return index;
}

/** The rows of the list, in order (read once per value of the list, like `readCompanyIndex`). */
export const readCompanyRows = (credentials: ICredentialDataDecryptedObject) =>
	readCompanyIndex(credentials).rows;

/** Where a company's token was found: one token, or several different ones (the rows holding them). */
export type FoundToken = { token: string } | { conflict: number[] } | undefined;

/**
 * Finds each company's token by its binding: the token its own row holds when that one is bound to it
 * (a row the editor did not touch), else the one token bound to it anywhere in the list. Indexed once,
 * so that looking up every company of the list stays linear.
 */
export function tokenFinder(
	stored: readonly StoredCompanyRow[],
): (companyId: string) => FoundToken {
	const elsewhere = new Map<string, Map<string, number[]>>();
	const inOwnRow = new Map<string, string>();
	stored.forEach((row, index) => {
		const bound = bindingOf(fieldText(row.accessToken));
		if (!bound) return;
		if (bound.companyId === fieldText(row.companyId) && !inOwnRow.has(bound.companyId)) {
			inOwnRow.set(bound.companyId, bound.token);
		}
		const tokens = elsewhere.get(bound.companyId) ?? new Map<string, number[]>();
		tokens.set(bound.token, [...(tokens.get(bound.token) ?? []), index + 1]);
		elsewhere.set(bound.companyId, tokens);
	});
	return (companyId) => {
		const own = inOwnRow.get(companyId);
		if (own !== undefined) return { token: own };
		const found = [...(elsewhere.get(companyId) ?? [])];
		if (found.length === 0) return undefined;
		if (found.length === 1) return { token: found[0][0] };
		return { conflict: found.flatMap(([, positions]) => positions).sort((a, b) => a - b) };
	};
}

/** Why a row's company has no token in the list: what its own Access Token field holds says why. */
function missingToken(entry: string, companyId: string, stored: string): string {
	if (stored === '') {
		return `The company list's ${entry} has no Access Token. Connect the company again, or paste its token as ${companyId}:<token>.`;
	}
	const heldFor = bindingOf(stored)?.companyId;
	if (heldFor === undefined) {
		return `The company list's ${entry}: its Access Token is not bound to a company. Paste it as ${companyId}:<token>, so that the token can never serve another company.`;
	}
	return `The company list's ${entry}: no row holds the token of company ${companyId} any more (its row holds the token of company ${heldFor}). n8n's editor gives saved tokens back to rows by position, so deleting or reordering rows dropped it. Nothing was sent for ${companyId}. Connect it again through the connect link, and never delete or reorder rows in the editor.`;
}

function readRows(stored: readonly StoredCompanyRow[]): CompanyRow[] {
	const tokenOf = tokenFinder(stored);
	return stored.flatMap((row, index): CompanyRow[] => {
		const position = index + 1;
		const companyId = fieldText(row.companyId);
		const label = fieldText(row.label);
		const value = fieldText(row.accessToken);
		// A row whose three fields were cleared is how a company is removed without moving other rows.
		if (companyId === '' && label === '' && value === '') return [];
		const entry = describeRow(position, companyId.trim(), label.trim());
		const problem = rowProblem(entry, companyId, label, value);
		if (problem) return [{ position, companyId: companyId.trim(), label: label.trim(), problem }];
		const found = tokenOf(companyId);
		if (found !== undefined && 'token' in found) {
			return [{ position, companyId, label, accessToken: found.token }];
		}
		const why =
			found === undefined
				? missingToken(entry, companyId, value)
				: `The company list's ${entry}: entries ${found.conflict.join(', ')} hold different tokens of company ${companyId}. Nothing was sent for ${companyId}. Connect it again through the connect link, which keeps one.`;
		return [{ position, companyId, label, problem: why }];
	});
}

/** Each company's first row by id; a repeated id makes both rows unusable, each saying why. */
function indexOf(rows: CompanyRow[]): CompanyIndex {
	const byId = new Map<string, CompanyRow>();
	for (const row of rows) {
		if (row.companyId === '') continue;
		const first = byId.get(row.companyId);
		if (!first) {
			byId.set(row.companyId, row);
			continue;
		}
		const problem = `The company list's ${describeRow(row.position, row.companyId, row.label)} repeats company ${row.companyId} of entry ${first.position}. Keep one entry per company.`;
		row.problem ??= problem;
		first.problem ??= problem;
		delete row.accessToken;
		delete first.accessToken;
	}
	return { rows, byId };
}

/** The usable company `companyId` of the credential's list (read once per value), or why it cannot send for it. */
export const lookUpCompany = (credentials: ICredentialDataDecryptedObject, companyId: string) =>
	lookUp(readCompanyIndex(credentials), companyId);

/** The usable company `companyId` of the list, or why the list cannot send for it. */
function lookUp(
	index: CompanyIndex,
	companyId: string,
): { company: PartnerCompany } | { problem: string } {
	const row = index.byId.get(companyId);
	if (!row) {
		return {
			problem: `Company ${companyId} is not in the credential's company list (${index.rows.length} companies). Connect it first, or choose a company of the list.`,
		};
	}
	// readRows and indexOf give a row either its token or its problem.
	if (row.problem !== undefined || row.accessToken === undefined)
		return { problem: String(row.problem) };
	return { company: { companyId: row.companyId, label: row.label, accessToken: row.accessToken } };
}

/** Why the list cannot send for `companyId` (not in it, or its row is broken), or undefined when it can. */
export function companyProblem(index: CompanyIndex, companyId: string): string | undefined {
	const found = lookUp(index, companyId);
	return 'problem' in found ? found.problem : undefined;
}

/** The usable company `companyId` of the list, or the error that names it and what to do. */
export function companyOf(index: CompanyIndex, companyId: string): PartnerCompany {
	const found = lookUp(index, companyId);
	if ('problem' in found) throw new CompanyListError(found.problem);
	return found.company;
}

/** "FR1001 (Boulangerie)" or "FR1001": how messages name a company of the list. */
export function companyName(company: Pick<PartnerCompany, 'companyId' | 'label'>): string {
	return company.label ? `${company.companyId} (${company.label})` : company.companyId;
}
