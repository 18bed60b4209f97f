import type { IDataObject } from 'n8n-workflow';

import { readPerCompany, type PerCompany } from './companies';

// The new-document state, per company: pure functions from (stored state, what the listings
// returned) to (next state, documents to fire for), and the waiting room of documents whose PDF
// could not be fetched yet.

export type DocumentType = 'autoEnrolment' | 'incomeTax';

export const DOCUMENT_TYPES: DocumentType[] = ['autoEnrolment', 'incomeTax'];

/** A document of a listing, with the listing it came from. */
export interface ListedDocument extends IDataObject {
	documentType: DocumentType;
	documentId: string;
	createdAt: string;
}

/** A new document whose PDF could not be fetched yet: tried again on later polls. */
interface WaitingDocument {
	documentType: DocumentType;
	/** When its download first failed for a reason that may pass (ISO), '' if not tried yet. */
	since: string;
}

export interface CompanyDocumentState {
	/** Listings watched; documents of a listing added later are a baseline. */
	types: DocumentType[];
	/** The newest createdAt seen (ISO), '' while none. */
	newest: string;
	/**
	 * documentId → createdAt of the documents seen that were created within SEEN_WINDOW_MS of the
	 * newest (and of undated documents still listed). Older documents count as seen: the state stays
	 * bounded however long the listings grow.
	 */
	seen: Record<string, string>;
	/** documentId → the document whose item waits for its PDF. */
	waiting: Record<string, WaitingDocument>;
}

export type DocumentState = PerCompany<CompanyDocumentState>;

/** A document listed this long after a newer one was already listed is taken for an old one. */
export const SEEN_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A PDF that keeps failing for a reason that may pass is tried on later polls this long, then given up. */
export const MAX_PDF_WAIT_MS = 24 * 60 * 60 * 1000;

function isCompanyDocumentState(value: unknown): value is CompanyDocumentState {
	const state = value as CompanyDocumentState | null;
	return (
		typeof state === 'object' &&
		state !== null &&
		Array.isArray(state.types) &&
		typeof state.newest === 'string' &&
		typeof state.seen === 'object' &&
		state.seen !== null &&
		typeof state.waiting === 'object' &&
		state.waiting !== null
	);
}

export function readDocumentState(value: unknown): DocumentState | undefined {
	return readPerCompany(value, isCompanyDocumentState);
}

function timeOf(createdAt: string): number {
	const time = Date.parse(createdAt);
	return Number.isNaN(time) ? 0 : time;
}

/** Oldest first, so the items of one execution arrive in the order the documents were created. */
export function byCreation(a: ListedDocument, b: ListedDocument): number {
	return timeOf(a.createdAt) - timeOf(b.createdAt) || a.documentId.localeCompare(b.documentId);
}

/** The documents kept in `seen`: those created within the window of the newest, and undated listed ones. */
function withinWindow(
	seen: Record<string, string>,
	newest: string,
	listedIds: Set<string>,
): Record<string, string> {
	const oldestKept = timeOf(newest) - SEEN_WINDOW_MS;
	return Object.fromEntries(
		Object.entries(seen).filter(([documentId, createdAt]) =>
			Number.isNaN(Date.parse(createdAt))
				? listedIds.has(documentId)
				: timeOf(createdAt) >= oldestKept,
		),
	);
}

/**
 * Applies one poll's listings to what is known of the company: every document not seen before is
 * new, once, unless it is part of a baseline (no state for this company yet, or a listing the user
 * just added) or older than the window (see `seen`). The new documents are recorded as seen at once;
 * the caller puts those whose PDF must wait into `waiting`.
 */
export function advanceDocumentState(
	stored: CompanyDocumentState | undefined,
	types: DocumentType[],
	listed: ListedDocument[],
	options: { fireForExisting: boolean },
): { state: CompanyDocumentState; newDocuments: ListedDocument[] } {
	const seen = { ...(stored?.seen ?? {}) };
	const oldestNew = stored?.newest ? timeOf(stored.newest) - SEEN_WINDOW_MS : -Infinity;
	const newDocuments: ListedDocument[] = [];
	let newest = stored?.newest ?? '';
	for (const document of [...listed].sort(byCreation)) {
		if (document.documentId in seen) continue;
		const dated = !Number.isNaN(Date.parse(document.createdAt));
		const isOld = dated && timeOf(document.createdAt) < oldestNew;
		const isBaseline = !stored || !stored.types.includes(document.documentType);
		seen[document.documentId] = document.createdAt;
		if (dated && timeOf(document.createdAt) > timeOf(newest)) newest = document.createdAt;
		if (!isOld && (!isBaseline || options.fireForExisting)) newDocuments.push(document);
	}
	const listedIds = new Set(listed.map((document) => document.documentId));
	return {
		state: {
			types: [...types].sort(),
			newest,
			seen: withinWindow(seen, newest, listedIds),
			waiting: { ...(stored?.waiting ?? {}) },
		},
		newDocuments,
	};
}

/** What to do with a document whose PDF download failed, at `now`. */
export function afterPdfFailure(
	waiting: WaitingDocument | undefined,
	mayPassLater: boolean,
	now: number,
): 'wait' | 'fireWithoutFile' {
	if (!mayPassLater) return 'fireWithoutFile';
	if (!waiting?.since) return 'wait';
	return now - Date.parse(waiting.since) < MAX_PDF_WAIT_MS ? 'wait' : 'fireWithoutFile';
}

/** "Fetch Test Event": the most recently created document. */
export function newestDocument(listed: ListedDocument[]): ListedDocument | undefined {
	return [...listed].sort(byCreation).pop();
}
