import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { companyName } from '../../../credentials/partnerCompanies';
import type { Connection, PartnerCompanies } from '../../shared/connection';
import { itemCompanyId } from './itemCompany';

// With hundreds of companies in one run, each output item and each item's error says which company
// it is for, so that a Switch, a Merge or a file name needs no pairedItem.

/** The company fields of an item: its id, and with the Partner API credential its label (null without one). */
interface CompanyFields extends IDataObject {
	companyId: string;
	companyLabel?: string | null;
}

/** Each company's label by id, read once per company list (the list is only read again when it changes). */
const labelsByList = new WeakMap<PartnerCompanies, Map<string, string>>();

function labelOf(partner: PartnerCompanies, companyId: string): string | null {
	let labels = labelsByList.get(partner);
	if (!labels) {
		labels = new Map();
		// The first row of a company is the one its requests use.
		for (const row of partner.companies)
			if (!labels.has(row.companyId)) labels.set(row.companyId, row.label);
		labelsByList.set(partner, labels);
	}
	return labels.get(companyId) || null;
}

/**
 * The company the item names itself, without any request: its Company ID as typed (always there
 * with the Partner API credential), with that company's label in the credential's list.
 */
export function namedCompanyOf(
	context: IExecuteFunctions,
	itemIndex: number,
	connection: Connection,
): CompanyFields | undefined {
	let typed: string;
	try {
		typed = String(context.getNodeParameter('companyId', itemIndex, '') ?? '').trim();
	} catch {
		return undefined; // an expression that fails: the item's own error says so
	}
	if (typed === '') return undefined;
	const { partner } = connection;
	return partner
		? { companyId: typed, companyLabel: labelOf(partner, typed) }
		: { companyId: typed };
}

/**
 * An item's output items, each starting with its company: `companyId` (and `companyLabel` with the
 * Partner API credential). A field of the same name that an item already has is kept as it is (the
 * operation's own, such as Get Connection's company of the token); the service's documented answers
 * have no such field.
 */
export async function withCompanyFields(
	context: IExecuteFunctions,
	itemIndex: number,
	connection: Connection,
	results: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const missing = results.some((result) => result.json.companyId === undefined);
	if (!missing && !connection.partner) return results;
	// Empty Company ID: the token's company, which the operation has already looked up (once per run).
	const company = namedCompanyOf(context, itemIndex, connection) ?? {
		companyId: await itemCompanyId(context, itemIndex, connection),
	};
	return results.map((result) => ({ ...result, json: { ...company, ...result.json } }));
}

/** Each error's message as the package worded it, before a company was put in front of it. */
const ownMessages = new WeakMap<Error, string>();

/**
 * With the Partner API credential, an item's error names the item's company and label in its
 * first line ("Company FR1001 (Boulangerie): …"), unless its message already names both (a broken
 * row of the list). The description, with the service's own words, stays as it is. With a
 * one-company credential the message stays as it is: the credential names the company.
 */
export function withCompanyInMessage<T extends NodeApiError | NodeOperationError>(
	error: T,
	company: CompanyFields | undefined,
): T {
	if (company?.companyLabel === undefined) return error;
	const message = ownMessages.get(error) ?? error.message;
	ownMessages.set(error, message);
	const { companyId, companyLabel } = company;
	const namesIt =
		message.includes(companyId) && (companyLabel === null || message.includes(companyLabel));
	error.message = namesIt
		? message
		: `Company ${companyName({ companyId, label: companyLabel ?? '' })}: ${message}`;
	return error;
}
