import type { IDataObject } from 'n8n-workflow';

// The new-document state: pure functions from (stored state, what the listings returned) to
// (next state, documents to fire for). The trigger stores the result only after a fully successful poll.

export type DocumentType = 'autoEnrolment' | 'incomeTax';

export const DOCUMENT_TYPES: DocumentType[] = ['autoEnrolment', 'incomeTax'];

/** A document of a listing, with the listing it came from. */
export interface ListedDocument extends IDataObject {
	documentType: DocumentType;
	documentId: string;
	createdAt: string;
}

export interface DocumentState {
	/** The state describes this company only; another company starts from a new baseline. */
	companyId: string;
	/** Listings watched; documents of a listing added later are a baseline. */
	types: DocumentType[];
	/** documentId → createdAt of every document seen (bounded, see `rememberDocuments`). */
	seen: Record<string, string>;
}

/** Ids kept after they left the listings, so a document that is briefly missing does not fire again. */
const MAX_REMEMBERED_DOCUMENTS = 1000;

export function readDocumentState(value: unknown): DocumentState | undefined {
	const state = value as DocumentState;
	if (
		typeof value !== 'object' ||
		value === null ||
		typeof state.companyId !== 'string' ||
		!Array.isArray(state.types) ||
		typeof state.seen !== 'object' ||
		state.seen === null
	) {
		return undefined;
	}
	return state;
}

function timeOf(document: { createdAt: string }): number {
	const time = Date.parse(document.createdAt);
	return Number.isNaN(time) ? 0 : time;
}

/** Oldest first, so the items of one execution arrive in the order the documents were created. */
function byCreation(a: ListedDocument, b: ListedDocument): number {
	return timeOf(a) - timeOf(b) || a.documentId.localeCompare(b.documentId);
}

/**
 * Every listed id (forgetting one would fire it again), plus the most recently created ids that left
 * the listings, up to `limit` ids in all.
 */
export function rememberDocuments(
	seen: Record<string, string>,
	listed: ListedDocument[],
	limit = MAX_REMEMBERED_DOCUMENTS,
): Record<string, string> {
	const remembered: Record<string, string> = {};
	for (const document of listed) remembered[document.documentId] = document.createdAt;
	const gone = Object.entries(seen)
		.filter(([documentId]) => !(documentId in remembered))
		.sort(([, a], [, b]) => timeOf({ createdAt: b }) - timeOf({ createdAt: a }));
	for (const [documentId, createdAt] of gone) {
		if (Object.keys(remembered).length >= limit) break;
		remembered[documentId] = createdAt;
	}
	return remembered;
}

/**
 * Applies one poll's listings to the stored state: every document not seen before is new, once
 * (deduplicated by documentId), unless it is part of a baseline: no state yet, another company,
 * or a listing the user just added.
 */
export function advanceDocumentState(
	stored: DocumentState | undefined,
	current: { companyId: string; types: DocumentType[] },
	listed: ListedDocument[],
	options: { fireForExisting: boolean },
): { state: DocumentState; newDocuments: ListedDocument[] } {
	const known = stored?.companyId === current.companyId ? stored : undefined;
	const newDocuments: ListedDocument[] = [];
	const firedIds = new Set<string>();
	for (const document of [...listed].sort(byCreation)) {
		if (known?.seen[document.documentId] !== undefined || firedIds.has(document.documentId)) {
			continue;
		}
		const isBaseline = !known || !known.types.includes(document.documentType);
		if (!isBaseline || options.fireForExisting) {
			firedIds.add(document.documentId);
			newDocuments.push(document);
		}
	}
	return {
		state: {
			companyId: current.companyId,
			types: [...current.types].sort(),
			seen: rememberDocuments(known?.seen ?? {}, listed),
		},
		newDocuments,
	};
}

/** The state without these documents: the next poll sees them as new again. */
export function forgetDocuments(state: DocumentState, documents: ListedDocument[]): DocumentState {
	if (!documents.length) return state;
	const seen = { ...state.seen };
	for (const document of documents) delete seen[document.documentId];
	return { ...state, seen };
}

/** "Fetch Test Event": the most recently created document. */
export function newestDocument(listed: ListedDocument[]): ListedDocument | undefined {
	return [...listed].sort(byCreation).pop();
}
