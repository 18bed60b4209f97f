import type { IExecuteFunctions } from 'n8n-workflow';

import { resolveCompanyId } from '../../shared/company';
import type { Connection } from '../../shared/connection';
import { failureError } from '../../shared/errors';
import { checkedId } from '../../shared/ids';

// The company an input item is for: the Company ID it names, or the company of the token.

/** The token's company, per run of the node (each run reads its own connection). */
const tokenCompanies = new WeakMap<Connection, Promise<string>>();

/**
 * The Company ID typed for this item, empty for the company of the token; required with the Partner
 * API credential, which itself refuses, before sending, a company its list cannot serve.
 */
export function typedCompanyId(
	context: IExecuteFunctions,
	itemIndex: number,
	connection: Connection,
): string {
	const node = context.getNode();
	const typed = String(context.getNodeParameter('companyId', itemIndex, '') ?? '').trim();
	const { partner } = connection;
	if (partner && typed === '') throw failureError(node, 'partnerCompanyMissing', {}, itemIndex);
	return typed && checkedId(typed, 'Company ID', node, itemIndex);
}

/**
 * The typed Company ID, and with the Partner API credential a company its list can serve: for an
 * operation that must know before its first request (a write that checks every item first).
 */
export function listedCompanyId(
	context: IExecuteFunctions,
	itemIndex: number,
	connection: Connection,
): string {
	const companyId = typedCompanyId(context, itemIndex, connection);
	const problem = connection.partner?.problemOf(companyId);
	if (problem !== undefined) {
		throw failureError(context.getNode(), 'partnerCompanyList', { problem }, itemIndex);
	}
	return companyId;
}

/** The typed Company ID, or the company of the token (looked up once per run). */
export async function itemCompanyId(
	context: IExecuteFunctions,
	itemIndex: number,
	connection: Connection,
): Promise<string> {
	const typed = typedCompanyId(context, itemIndex, connection);
	if (typed) return typed;
	let lookup = tokenCompanies.get(connection);
	if (!lookup) {
		lookup = resolveCompanyId(context, connection, '');
		tokenCompanies.set(connection, lookup);
	}
	// A failure is not remembered: the next item tries again.
	return await lookup.catch((error: unknown) => {
		if (tokenCompanies.get(connection) === lookup) tokenCompanies.delete(connection);
		throw error;
	});
}
