import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { Connection } from '../../shared/connection';
import { withListedDocumentPdf } from '../../shared/documents';
import { parameterError } from '../../shared/errors';
import {
	DOCUMENT_TYPES,
	advanceDocumentState,
	afterPdfFailure,
	byCreation,
	newestDocument,
	readDocumentState,
	type CompanyDocumentState,
	type DocumentType,
	type ListedDocument,
} from '../helpers/documentState';
import { documentItem } from '../helpers/items';
import type { PollBudget } from '../helpers/pollBudget';
import { listDocuments, mayPassLater } from '../helpers/requests';
import type { EventWatcher } from './types';

const NO_LONGER_LISTED =
	'The document is no longer listed by the Partner Payroll API, so its PDF cannot be fetched';

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

	async function withPdf(connection: Connection, companyId: string, item: INodeExecutionData) {
		const withFile = await withListedDocumentPdf(
			context,
			connection,
			companyId,
			item,
			binaryPropertyName,
		);
		return { ...withFile, json: { ...withFile.json, pdfError: null } };
	}

	/**
	 * The items of the documents to fire, oldest first: the documents waiting for their PDF, then the
	 * new ones. With Attach PDF every item has `pdfError` (null with the file). A download that fails
	 * for a reason that may pass (the poll's time, a timeout, a 429 or 5xx after every attempt) keeps
	 * its document waiting for a later poll, up to MAX_PDF_WAIT_MS; a permanent error, or that time
	 * spent, fires it without the file.
	 */
	async function itemsOf(
		connection: Connection,
		companyId: string,
		state: CompanyDocumentState,
		documents: ListedDocument[],
		budget: PollBudget,
	) {
		const items: INodeExecutionData[] = [];
		const waiting = { ...state.waiting };
		for (const document of documents) {
			const item = documentItem(companyId, document);
			if (!attachPdf) {
				// Attach PDF turned off while documents waited: they fire now, without a file.
				items.push(item);
				delete waiting[document.documentId];
				continue;
			}
			if (budget.isSpent) {
				waiting[document.documentId] ??= { documentType: document.documentType, since: '' };
				continue;
			}
			try {
				items.push(await withPdf(connection, companyId, item));
				delete waiting[document.documentId];
			} catch (error) {
				const known = waiting[document.documentId];
				if (afterPdfFailure(known, mayPassLater(error), Date.now()) === 'wait') {
					waiting[document.documentId] = {
						documentType: document.documentType,
						since: known?.since || new Date().toISOString(),
					};
					continue;
				}
				items.push({ json: { ...item.json, pdfError: (error as Error).message } });
				delete waiting[document.documentId];
			}
		}
		return { items, waiting };
	}

	/**
	 * Documents that waited for their PDF and left a listing still watched: fired without the file.
	 * Those of a listing the user stopped watching wait until it is watched again.
	 */
	function goneItems(
		companyId: string,
		state: CompanyDocumentState,
		listedIds: Set<string>,
	): INodeExecutionData[] {
		return Object.entries(state.waiting)
			.filter(
				([documentId, { documentType }]) =>
					!listedIds.has(documentId) && types.includes(documentType),
			)
			.map(([documentId, { documentType }]) => ({
				json: {
					...documentItem(companyId, { documentId, documentType, createdAt: '' }).json,
					pdfError: NO_LONGER_LISTED,
				},
			}));
	}

	return {
		readState: readDocumentState,

		async check(connection, companyId, knownState, budget) {
			const known = knownState as CompanyDocumentState | undefined;
			if (!known) {
				context.logger.debug(
					`Partner Payroll Trigger: first poll for company ${companyId}, recording the listed documents`,
				);
			}
			const listed = await listingsOf(connection, companyId, budget);
			const { state, newDocuments } = advanceDocumentState(known, types, listed, {
				fireForExisting,
			});
			const listedIds = new Set(listed.map((document) => document.documentId));
			const gone = goneItems(companyId, state, listedIds);
			const stillWaiting = listed.filter((document) => document.documentId in state.waiting);
			const { items, waiting } = await itemsOf(
				connection,
				companyId,
				state,
				[...stillWaiting.sort(byCreation), ...newDocuments],
				budget,
			);
			// Gone from a watched listing: fired above. A listing the user stopped watching keeps its
			// waiting documents for when it is watched again (they were recorded as seen).
			for (const [documentId, { documentType }] of Object.entries(waiting)) {
				if (types.includes(documentType) && !listedIds.has(documentId)) delete waiting[documentId];
			}
			const waitingCount = Object.keys(waiting).length;
			if (waitingCount) {
				context.logger.debug(
					`Partner Payroll Trigger: ${waitingCount} document(s) wait for their PDF until a later poll`,
				);
			}
			return {
				companyState: { ...state, waiting },
				items: [...gone, ...items],
			};
		},

		async sample(connection, companyId, budget) {
			const newest = newestDocument(await listingsOf(connection, companyId, budget));
			if (!newest) return [];
			const item = documentItem(companyId, newest);
			if (!attachPdf) return [item];
			budget.check();
			return [await withPdf(connection, companyId, item)];
		},
	};
}
