import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { Connection } from '../../shared/connection';
import { withListedDocumentPdf } from '../../shared/documents';
import { parameterError } from '../../shared/errors';
import {
	DOCUMENT_TYPES,
	advanceDocumentState,
	forgetDocuments,
	newestDocument,
	readDocumentState,
	type DocumentType,
	type ListedDocument,
} from '../helpers/documentState';
import { documentItem } from '../helpers/items';
import type { PollBudget } from '../helpers/pollBudget';
import { listDocuments } from '../helpers/requests';
import type { EventWatcher } from './types';

/** Event `newDocument`: the parameters are read and checked here, before any request. */
export function newDocumentWatcher(context: IPollFunctions): EventWatcher {
	// An expression may give "incomeTax,autoEnrolment" instead of a list.
	const chosen = context.getNodeParameter('documentTypes', DOCUMENT_TYPES) as unknown;
	const types = (Array.isArray(chosen) ? chosen : String(chosen ?? '').split(','))
		.map((type) => String(type).trim())
		.filter((type): type is DocumentType => DOCUMENT_TYPES.includes(type as DocumentType))
		.sort();
	if (!types.length) {
		throw parameterError(context.getNode(), 'Document Types needs at least one type');
	}
	const fireForExisting = context.getNodeParameter('options.fireForExisting', false) as boolean;
	const attachPdf = context.getNodeParameter('options.attachPdf', false) as boolean;
	const binaryPropertyName =
		String(context.getNodeParameter('options.binaryPropertyName', 'data')).trim() || 'data';

	// One listing request per document type.
	async function listingsOf(connection: Connection, companyId: string, budget: PollBudget) {
		const listed: ListedDocument[] = [];
		for (const type of types) {
			budget.check();
			listed.push(...(await listDocuments(context, connection, companyId, type)));
		}
		return listed;
	}

	// A PDF that still fails after the bounded attempts must block neither its document nor any
	// later one: the document fires without the file, saying why.
	async function withPdf(connection: Connection, companyId: string, item: INodeExecutionData) {
		try {
			return await withListedDocumentPdf(context, connection, companyId, item, binaryPropertyName);
		} catch (error) {
			return { json: { ...item.json, pdfError: (error as Error).message } };
		}
	}

	/**
	 * One download per document, one after the other, oldest first. A download that started ends in
	 * the file or in pdfError; the documents whose download could not start within the poll's budget
	 * are `deferred`: they stay new for the next poll, so a slow PDF costs no other document its file.
	 */
	async function itemsOf(
		connection: Connection,
		companyId: string,
		documents: ListedDocument[],
		budget: PollBudget,
	) {
		const items: INodeExecutionData[] = [];
		for (const [index, document] of documents.entries()) {
			const item = documentItem(companyId, document);
			if (!attachPdf) {
				items.push(item);
			} else if (budget.isSpent) {
				return { items, deferred: documents.slice(index) };
			} else {
				items.push(await withPdf(connection, companyId, item));
			}
		}
		return { items, deferred: [] };
	}

	return {
		async check(connection, companyId, stored, budget) {
			const previous = readDocumentState(stored);
			const known = previous?.companyId === companyId ? previous : undefined;
			if (!known) {
				context.logger.debug(
					`Partner Payroll Trigger: first poll for company ${companyId}, recording the listed documents`,
				);
			}
			const { state, newDocuments } = advanceDocumentState(
				known,
				{ companyId, types },
				await listingsOf(connection, companyId, budget),
				{ fireForExisting },
			);
			const { items, deferred } = await itemsOf(connection, companyId, newDocuments, budget);
			if (deferred.length) {
				context.logger.debug(
					`Partner Payroll Trigger: poll budget spent, ${deferred.length} document(s) left for the next poll`,
				);
			}
			return { state: forgetDocuments(state, deferred), items };
		},

		async sample(connection, companyId, budget) {
			const newest = newestDocument(await listingsOf(connection, companyId, budget));
			if (!newest) return [];
			const { items, deferred } = await itemsOf(connection, companyId, [newest], budget);
			if (deferred.length) budget.check(); // its PDF could not start in time
			return items;
		},
	};
}
