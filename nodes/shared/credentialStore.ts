import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { rowsWithTheirTokens } from '../../credentials/companyListWrite';
import {
	fieldText,
	readCompanyRows,
	storedRows,
	type CompanyRow,
	type StoredCompanyRow,
} from '../../credentials/partnerCompanies';
import { ListChangeLost, checkListLock, underListLock } from './listLock';
import { N8nApiProblem, n8nApiRequest, type StoreContext } from './n8nApi';

// Writes the Partner API credential's company list through n8n's public API (PATCH
// /api/v1/credentials/{id} with isPartialData, n8n 2.8.4 and 2.40.7): the connect link adds or
// replaces a company, the node's Remove Company takes one out. Nobody edits the list by hand.
//
// n8n merges a partial PATCH at the top level only, so the whole `companies` list is sent, every row
// with its real values (n8n gives masked values back by position, which would move tokens).
//
// What protects the list from a lost update:
// - two changes in one n8n process: a lock per credential (below) runs them one after the other,
//   each reading the list afresh (n8n's getCredentials reads the database at every call, in
//   credentials-helper getDecrypted of 2.8.4 and 2.40.7);
// - two processes (queue mode, webhook processes, several mains): a lock every process shares, a
//   lease in n8n's Data Tables (listLock.ts), around the read, the write and the read back. The list
//   is still read back after the write, and a change that is not there is made again (a few times)
//   before it is reported as lost (ListChangeLost): a change from outside the package (an edit in
//   n8n's editor) takes no lock.

export const PARTNER_CREDENTIAL = 'partnerPayrollPartnerApi';

export { ListChangeLost } from './listLock';

const locks = new Map<string, Promise<unknown>>();

// n8n quirk Q7: docs/n8n-quirks.md
/** Runs `work` after every earlier one for the same credential in this process has ended. */
export async function underCredentialLock<T>(key: string, work: () => Promise<T>): Promise<T> {
	const previous = locks.get(key) ?? Promise.resolve();
	const run = previous.then(work);
	const tail = run.then(
		() => undefined,
		() => undefined,
	);
	locks.set(key, tail);
	void tail.then(() => {
		if (locks.get(key) === tail) locks.delete(key);
	});
	return await run;
}

/** The id n8n gave the node's Partner API credential (the one to PATCH). */
export function partnerCredentialId(context: StoreContext): string {
	const id = context.getNode().credentials?.[PARTNER_CREDENTIAL]?.id;
	if (!id) {
		throw new N8nApiProblem(
			context.getNode(),
			'The node has no saved Partner Payroll Partner API credential. Select one and save the workflow.',
		);
	}
	return id;
}

/** Throws what to fix unless the lock every change of the list takes can be used. */
export const checkCompanyListLock = async (context: StoreContext) =>
	await checkListLock(context, partnerCredentialId(context));

export interface NewToken {
	companyId: string;
	/** The partner's label for a new row (empty: the company id); a row already there keeps its own. */
	label: string;
	token: string;
}

const isRowOf = (companyId: string) => (row: StoredCompanyRow) =>
	fieldText(row.companyId).trim() === companyId;

/** Whether the Partner API credential as read has a row of the company. */
export const isListed = (partner: ICredentialDataDecryptedObject, companyId: string) =>
	storedRows(partner).some(isRowOf(companyId));

/**
 * The list with the company's token replaced in its own row, or the company appended; every other
 * token back in its own row (an edit in n8n's editor may have moved them).
 */
export function withCompany(
	rows: StoredCompanyRow[],
	company: NewToken,
): { rows: IDataObject[]; replaced: boolean; label: string } {
	const index = rows.findIndex(isRowOf(company.companyId));
	// A label never renames a row: a row already there keeps its own.
	const label = fieldText(rows[index]?.label).trim() || company.label || company.companyId;
	// The row keeps what it holds until the tokens are placed: maybe another company's moved token.
	const row = { companyId: company.companyId, label, accessToken: rows[index]?.accessToken ?? '' };
	const listed = index >= 0 ? rows.map((kept, at) => (at === index ? row : kept)) : [...rows, row];
	const written = rowsWithTheirTokens(listed, {
		companyId: company.companyId,
		token: company.token,
	});
	return { rows: written, replaced: index >= 0, label };
}

/**
 * The list without the company's rows, and without its token wherever an edit in n8n's editor had
 * moved it; every other token back in its own row.
 */
export function withoutCompany(
	rows: StoredCompanyRow[],
	companyId: string,
): { rows: IDataObject[]; removed: StoredCompanyRow[] } {
	const written = rowsWithTheirTokens(rows.filter((row) => !isRowOf(companyId)(row))).map((row) =>
		row.accessToken.startsWith(`${companyId}:`) ? { ...row, accessToken: '' } : row,
	);
	return { rows: written, removed: rows.filter(isRowOf(companyId)) };
}

// n8n quirk Q6: docs/n8n-quirks.md
/**
 * n8n's own fields on every credential with `authenticate` (the HTTP Request node's domain
 * restriction), as stored (n8n's default "All" when never set): n8n 2.8.4's schema check asks for
 * Allowed Domains whenever Allowed HTTP Request Domains is absent. Sent as stored, nothing changes.
 */
function domainRestriction(stored: IDataObject): IDataObject {
	const choice =
		typeof stored.allowedHttpRequestDomains === 'string' ? stored.allowedHttpRequestDomains : 'all';
	return choice === 'domains'
		? { allowedHttpRequestDomains: choice, allowedDomains: String(stored.allowedDomains ?? '') }
		: { allowedHttpRequestDomains: choice };
}

// n8n quirk Q6: docs/n8n-quirks.md
/** Writes `fields` into the node's Partner API credential, `stored` being the credential as just read. */
export async function patchPartnerCredential(
	context: StoreContext,
	stored: IDataObject,
	fields: IDataObject,
): Promise<void> {
	const credentialId = partnerCredentialId(context);
	await n8nApiRequest(context, 'PATCH', `/credentials/${encodeURIComponent(credentialId)}`, {
		data: { ...fieldsTheSchemaNeeds(stored), ...fields },
		isPartialData: true,
	});
}

// n8n quirk Q6: docs/n8n-quirks.md
/**
 * What a partial PATCH must carry besides the list: n8n 2.8.4 checks it against the credential's
 * whole schema (its required API Base URL and Authorization Server URL, and n8n's domain fields);
 * n8n 2.40.7 checks a partial one without required fields. Nothing else is sent: `stored` is the
 * credential as n8n resolved it, so a Client ID or Client Secret kept as an expression or an external
 * secret (`{{ $secrets… }}`) would be written back as its value. n8n merges the top level, so every
 * field not sent stays as stored.
 */
function fieldsTheSchemaNeeds(stored: IDataObject): IDataObject {
	return {
		baseUrl: stored.baseUrl,
		authServerUrl: stored.authServerUrl,
		...domainRestriction(stored),
	};
}

/**
 * Writes of the list, at most, when something outside the package (an edit in n8n's editor) overwrites
 * it each time: the change (a new token the service has already issued, whose previous token it
 * revoked) is applied again to the list as it was left, rather than lost.
 */
const LIST_WRITE_ATTEMPTS = 3;

// n8n quirk Q6: docs/n8n-quirks.md
/**
 * Changes the node's Partner API credential's company list under the locks (this process's, then the
 * one every process shares): reads it afresh, writes what `change` makes of it, reads it again and
 * checks with `isThere` that the change is stored; when something wrote in between, does it again on
 * the list as now stored.
 */
export async function changeCompanyList<T>(
	context: StoreContext,
	change: (rows: StoredCompanyRow[]) => { rows: IDataObject[]; result: T },
	isThere: (rows: readonly CompanyRow[]) => boolean,
): Promise<T> {
	const credentialId = partnerCredentialId(context);
	return await underCredentialLock(credentialId, async () =>
		underListLock(context, credentialId, async (lease) => {
			for (let attempt = 1; attempt <= LIST_WRITE_ATTEMPTS; attempt++) {
				const stored = await context.getCredentials(PARTNER_CREDENTIAL);
				const { rows, result } = change(storedRows(stored));
				lease.check();
				await patchPartnerCredential(context, stored, { companies: { company: rows } });
				if (isThere(readCompanyRows(await context.getCredentials(PARTNER_CREDENTIAL))))
					return result;
			}
			throw new ListChangeLost(
				context.getNode(),
				`The company list was saved ${LIST_WRITE_ATTEMPTS} times, but read back without this change each time: something that takes no lock of this package (an edit in n8n's editor, an older version of this package in another n8n process) changed the list at the same moment, each time. Do it again.`,
			);
		}),
	);
}
