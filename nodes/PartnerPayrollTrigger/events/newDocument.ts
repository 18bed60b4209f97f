import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

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
import { documentItem } from '../helpers/pollItems';
import { listDocuments, mayPassLater } from '../helpers/requests';
import type { CompanyCheck, CompanyInPoll, EventDefinition } from './watcher';

// Event `newDocument`: the documents that appear in a UK company's listings, each fired once, with
// its PDF when Attach PDF is on.

const NO_LONGER_LISTED =
	'The document is no longer listed by the Partner Payroll API, so its PDF cannot be fetched';

/** The event's parameters. */
export interface DocumentSettings {
	/** The watched listings, sorted. */
	types: DocumentType[];
	fireForExisting: boolean;
	attachPdf: boolean;
	binaryPropertyName: string;
}

/** Reads and checks the event's parameters, before any request. */
export function readDocumentSettings(context: IPollFunctions): DocumentSettings {
	// An expression may give "incomeTax,autoEnrolment" instead of a list.
	const chosen = context.getNodeParameter('documentTypes', DOCUMENT_TYPES) as unknown;
	const types = (Array.isArray(chosen) ? chosen : String(chosen ?? '').split(','))
		.map((type) => String(type).trim())
		.filter((type): type is DocumentType => DOCUMENT_TYPES.includes(type as DocumentType))
		.sort();
	if (!types.length) {
		throw parameterError(context.getNode(), 'Document Types needs at least one type');
	}
	return {
		types,
		fireForExisting: context.getNodeParameter('options.fireForExisting', false) as boolean,
		attachPdf: context.getNodeParameter('options.attachPdf', false) as boolean,
		binaryPropertyName:
			String(context.getNodeParameter('options.binaryPropertyName', 'data')).trim() || 'data',
	};
}

/** One company's documents against what was stored for it (undefined: its first poll). */
export async function checkDocuments(
	company: CompanyInPoll,
	settings: DocumentSettings,
	known: CompanyDocumentState | undefined,
): Promise<CompanyCheck> {
	const { context, companyId } = company;
	const { types } = settings;
	const listed = await listingsOf(company, types);
	const { state, newDocuments } = advanceDocumentState(known, types, listed, {
		fireForExisting: settings.fireForExisting,
	});
	const listedIds = new Set(listed.map((document) => document.documentId));
	const gone = goneItems(companyId, types, state, listedIds);
	const stillWaiting = listed.filter((document) => document.documentId in state.waiting);
	const { items, waiting } = await itemsOf(company, settings, state, [
		...stillWaiting.sort(byCreation),
		...newDocuments,
	]);
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
}

/** "Fetch Test Event": the newest listed document, with its PDF when Attach PDF is on. */
export async function sampleDocuments(
	company: CompanyInPoll,
	settings: DocumentSettings,
): Promise<INodeExecutionData[]> {
	const newest = newestDocument(await listingsOf(company, settings.types));
	if (!newest) return [];
	const item = documentItem(company.companyId, newest);
	if (!settings.attachPdf) return [item];
	company.budget.check();
	return [await withPdf(company, item, settings.binaryPropertyName)];
}

/** One listing request per document type. */
async function listingsOf(company: CompanyInPoll, types: DocumentType[]) {
	const { context, connection, companyId, budget } = company;
	const listed: ListedDocument[] = [];
	for (const type of types) {
		budget.check();
		listed.push(...(await listDocuments(context, connection, companyId, type)));
	}
	return listed;
}

async function withPdf(
	company: CompanyInPoll,
	item: INodeExecutionData,
	binaryPropertyName: string,
) {
	const { context, connection, companyId } = company;
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
	company: CompanyInPoll,
	settings: DocumentSettings,
	state: CompanyDocumentState,
	documents: ListedDocument[],
) {
	const { companyId, budget } = company;
	const items: INodeExecutionData[] = [];
	const waiting = { ...state.waiting };
	for (const document of documents) {
		const item = documentItem(companyId, document);
		if (!settings.attachPdf) {
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
			items.push(await withPdf(company, item, settings.binaryPropertyName));
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
	types: DocumentType[],
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

/** Event `newDocument`. */
export const newDocumentEvent: EventDefinition<DocumentSettings, CompanyDocumentState> = {
	readSettings: readDocumentSettings,
	readState: readDocumentState,
	baseline: 'the listed documents',
	check: checkDocuments,
	sample: sampleDocuments,
};
