import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/**
 * The company list of the Partner Payroll Partner API credential: one row per client company, each with
 * the access token the service gave for that company. Read by the credential (which token a request
 * carries), by the nodes (the Company list) and by the triggers (which companies to watch).
 *
 * Each token is stored bound to its company, as `<company ID>:<token>`. n8n gives a masked password back
 * to its row by position when the list is saved from the editor, so deleting or reordering a row moves
 * tokens to other rows; the binding makes such a token refuse to serve the company of its new row.
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

function textOf(value: unknown): string {
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

/** What is wrong with one row on its own (duplicates are found across rows), or undefined. */
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
	if (stored === '') {
		return `The company list's ${entry} has no Access Token. Connect the company again, or paste its token as ${companyId}:<token>.`;
	}
	const boundTo = stored.slice(0, Math.max(stored.indexOf(':'), 0));
	if (!COMPANY_ID.test(boundTo) || stored.length === boundTo.length + 1) {
		return `The company list's ${entry}: its Access Token is not bound to a company. Paste it as ${companyId}:<token>, so that the token can never serve another company.`;
	}
	if (boundTo !== companyId) {
		return `The company list's ${entry} holds the token of company ${boundTo}, not of ${companyId}: rows were deleted or reordered in n8n's editor, which moves tokens between rows. Nothing was sent for ${companyId}. Connect it again through the connect link (or paste its token as ${companyId}:<token>), and never delete or reorder rows in the editor.`;
	}
	return undefined;
}

/** The list as read: its rows in order, and each company's row by id. */
export interface CompanyIndex {
	rows: readonly CompanyRow[];
	byId: ReadonlyMap<string, CompanyRow>;
}

/** Each credential value's list, read once: every request of an execution looks its company up here. */
const indexes = new WeakMap<object, CompanyIndex>();

/**
 * Every row read and checked: a company ID of the service's shape, a token, no duplicate ids, no
 * whitespace around values, and each token bound to the company of its own row. A row with a problem
 * keeps only its problem, so one broken row never stops the other companies. Read once per value of
 * the credential's list.
 */
export function readCompanyIndex(credentials: ICredentialDataDecryptedObject): CompanyIndex {
	const key = credentials.companies;
	const known = typeof key === 'object' && key !== null ? indexes.get(key) : undefined;
	if (known) return known;
	const index = indexOf(readRows(credentials));
	if (typeof key === 'object' && key !== null) indexes.set(key, index);
	return index;
}

/** The rows of the list, in order (read once per value of the list, like `readCompanyIndex`). */
export const readCompanyRows = (credentials: ICredentialDataDecryptedObject) =>
	readCompanyIndex(credentials).rows;

function readRows(credentials: ICredentialDataDecryptedObject): CompanyRow[] {
	return storedRows(credentials).flatMap((row, index): CompanyRow[] => {
		const position = index + 1;
		const companyId = textOf(row.companyId);
		const label = textOf(row.label);
		const stored = textOf(row.accessToken);
		// A row whose three fields were cleared is how a company is removed without moving other rows.
		if (companyId === '' && label === '' && stored === '') return [];
		const problem = rowProblem(
			describeRow(position, companyId.trim(), label.trim()),
			companyId,
			label,
			stored,
		);
		if (problem) return [{ position, companyId: companyId.trim(), label: label.trim(), problem }];
		return [{ position, companyId, label, accessToken: stored.slice(companyId.length + 1) }];
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
