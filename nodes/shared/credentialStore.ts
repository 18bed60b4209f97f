import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestMethods,
	type IN8nHttpFullResponse,
	type IWebhookFunctions,
} from 'n8n-workflow';

import {
	bindToken,
	readCompanyRows,
	storedRows,
	type CompanyRow,
	type StoredCompanyRow,
} from '../../credentials/partnerCompanies';
import { withoutTrailingSlashes } from './authentication';
import { isObject } from './objects';

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
// - two processes (queue mode, several webhook processes): no lock can reach across, so the list is
//   read again after the write, and a change that is not there is reported as lost (ListChangeLost),
//   for the caller to ask for a retry.

export const PARTNER_CREDENTIAL = 'partnerPayrollPartnerApi';
export const N8N_API_CREDENTIAL = 'partnerPayrollN8nApi';

export type StoreContext = IWebhookFunctions | IExecuteFunctions;

/** n8n's public API refused or could not be reached: the partner must fix the setup. */
export class N8nApiProblem extends NodeOperationError {}

/** The list was written, but read back without the change: another process wrote in between. */
export class ListChangeLost extends NodeOperationError {}

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

const textOf = (value: unknown) => (typeof value === 'string' ? value : '');

/** n8n's own words in an error answer (`message`), never a request header. */
function n8nMessage(body: unknown): string {
	const message = isObject(body) ? body.message : undefined;
	return typeof message === 'string' && message ? ` n8n said: ${message.slice(0, 200)}` : '';
}

/** One request to n8n's public API with the n8n API credential; refusals become what to fix. */
export async function n8nApiRequest(
	context: StoreContext,
	method: IHttpRequestMethods,
	path: string,
	body?: IDataObject,
): Promise<unknown> {
	const node = context.getNode();
	const credentials = await context.getCredentials(N8N_API_CREDENTIAL);
	const base = withoutTrailingSlashes(credentials.url);
	if (!URL.canParse(base)) {
		throw new N8nApiProblem(
			node,
			`The n8n URL of the Partner Payroll n8n API credential ("${base}") is not a URL. Enter this n8n's address, such as https://n8n.example.com.`,
		);
	}
	let response: IN8nHttpFullResponse | undefined;
	let unreachable = '';
	try {
		response = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			N8N_API_CREDENTIAL,
			{
				method,
				url: `${base}/api/v1${path}`,
				body,
				json: true,
				timeout: 20_000,
				ignoreHttpStatusErrors: true,
				returnFullResponse: true,
			},
		)) as IN8nHttpFullResponse;
	} catch (error) {
		const cause = (error as { cause?: { code?: string }; code?: string }) ?? {};
		unreachable = cause.code ?? cause.cause?.code ?? 'no answer';
	}
	if (response === undefined) {
		throw new N8nApiProblem(
			node,
			`n8n's public API could not be reached at ${base}/api/v1 (${unreachable}). Check the n8n URL of the Partner Payroll n8n API credential: the address at which this n8n reaches itself.`,
		);
	}
	const status = response.statusCode;
	if (status === 401 || status === 403) {
		throw new N8nApiProblem(
			node,
			`n8n's public API at ${base} refused the API key of the Partner Payroll n8n API credential (${status}). Create a key in Settings → n8n API, as a user who owns the Partner API credential, and paste it into that credential.${n8nMessage(response.body)}`,
		);
	}
	if (status === 404) {
		throw new N8nApiProblem(
			node,
			`n8n's public API answered 404 at ${base}/api/v1${path.split('?')[0]}: it is disabled (N8N_PUBLIC_API_DISABLED), the n8n URL is not this n8n, or the Partner API credential no longer exists.${n8nMessage(response.body)}`,
		);
	}
	if (status >= 300) {
		throw new N8nApiProblem(
			node,
			`n8n's public API answered ${status} to ${method} ${path.split('?')[0]}.${n8nMessage(response.body)}`,
		);
	}
	return response.body;
}

/** The rows as stored, each with its raw values (a broken row is written back as it was). */
function rowsToWrite(rows: StoredCompanyRow[]): IDataObject[] {
	return rows.map((row) => ({
		companyId: textOf(row.companyId),
		label: textOf(row.label),
		accessToken: textOf(row.accessToken),
	}));
}

export interface NewToken {
	companyId: string;
	/** The partner's label for a new row (empty: the company id); a row already there keeps its own. */
	label: string;
	token: string;
}

/** The list with the company's row replaced in place, or appended: its token bound to it. */
export function withCompany(
	rows: StoredCompanyRow[],
	company: NewToken,
): { rows: IDataObject[]; replaced: boolean; label: string } {
	const written = rowsToWrite(rows);
	const index = written.findIndex((row) => String(row.companyId).trim() === company.companyId);
	const label = String(written[index]?.label ?? '').trim() || company.label || company.companyId;
	const row = {
		companyId: company.companyId,
		label,
		accessToken: bindToken(company.companyId, company.token),
	};
	if (index >= 0) written[index] = row;
	else written.push(row);
	return { rows: written, replaced: index >= 0, label };
}

/** The list without the company's rows (every row is sent with its real values, so none moves). */
export function withoutCompany(
	rows: StoredCompanyRow[],
	companyId: string,
): { rows: IDataObject[]; removed: StoredCompanyRow[] } {
	const written = rowsToWrite(rows);
	const isIt = (row: IDataObject) => String(row.companyId).trim() === companyId;
	return { rows: written.filter((row) => !isIt(row)), removed: written.filter(isIt) };
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
		// The whole credential as read under the lock, with the new fields: n8n 2.8.4 checks a partial
		// PATCH's data against the credential's schema before merging (its required fields included).
		data: { ...stored, ...domainRestriction(stored), ...fields },
		isPartialData: true,
	});
}

// n8n quirk Q6: docs/n8n-quirks.md
/**
 * Changes the node's Partner API credential's company list under the lock: reads it afresh, writes
 * what `change` makes of it, reads it again and checks with `isThere` that the change is stored.
 */
export async function changeCompanyList<T>(
	context: StoreContext,
	change: (rows: StoredCompanyRow[]) => { rows: IDataObject[]; result: T },
	isThere: (rows: readonly CompanyRow[]) => boolean,
): Promise<T> {
	const credentialId = partnerCredentialId(context);
	return await underCredentialLock(credentialId, async () => {
		const stored = await context.getCredentials(PARTNER_CREDENTIAL);
		const { rows, result } = change(storedRows(stored));
		await patchPartnerCredential(context, stored, { companies: { company: rows } });
		if (!isThere(readCompanyRows(await context.getCredentials(PARTNER_CREDENTIAL)))) {
			throw new ListChangeLost(
				context.getNode(),
				'The company list was saved, but read back without this change: another n8n process changed the list at the same moment. Do it again.',
			);
		}
		return result;
	});
}
