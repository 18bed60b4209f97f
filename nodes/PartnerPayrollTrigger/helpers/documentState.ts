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
	/**
	 * Ids only: those listed at the last poll (forgetting one would fire it again), then at most
	 * MAX_GONE_IDS that left the listings, most recently gone first (one that is briefly missing
	 * does not fire again). About 25 bytes a document: 5,000 listed documents take about 125 KB.
	 */
	seen: string[];
	/** documentId → the document whose item waits for its PDF. */
	waiting: Record<string, WaitingDocument>;
}

export type DocumentState = PerCompany<CompanyDocumentState>;

/** Ids kept after they left the listings. */
export const MAX_GONE_IDS = 200;

/** A PDF that keeps failing for a reason that may pass is tried on later polls this long, then given up. */
export const MAX_PDF_WAIT_MS = 24 * 60 * 60 * 1000;

function isCompanyDocumentState(value: unknown): value is CompanyDocumentState {
	const state = value as CompanyDocumentState | null;
	return (
		typeof state === 'object' &&
		state !== null &&
		Array.isArray(state.types) &&
		Array.isArray(state.seen) &&
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

/**
 * Applies one poll's listings to what is known of the company: every document not seen before is
 * new, once, unless it is part of a baseline (no state for this company yet, or a listing the user
 * just added). The new documents are recorded as seen at once; the caller puts those whose PDF must
 * wait into `waiting`. No date decides: a document listed late with an old createdAt still fires.
 */
export function advanceDocumentState(
	stored: CompanyDocumentState | undefined,
	types: DocumentType[],
	listed: ListedDocument[],
	options: { fireForExisting: boolean },
): { state: CompanyDocumentState; newDocuments: ListedDocument[] } {
	const seen = new Set(stored?.seen ?? []);
	const newDocuments: ListedDocument[] = [];
	const listedNow = new Set<string>();
	for (const document of [...listed].sort(byCreation)) {
		if (listedNow.has(document.documentId)) continue;
		listedNow.add(document.documentId);
		const isBaseline = !stored || !stored.types.includes(document.documentType);
		if (!seen.has(document.documentId) && (!isBaseline || options.fireForExisting)) {
			newDocuments.push(document);
		}
	}
	const gone = (stored?.seen ?? []).filter((documentId) => !listedNow.has(documentId));
	return {
		state: {
			types: [...types].sort(),
			seen: [...listedNow, ...gone.slice(0, MAX_GONE_IDS)],
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
