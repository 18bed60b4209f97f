import { withCompanyState } from '../../../../nodes/PartnerPayrollTrigger/helpers/companies';
import {
	MAX_GONE_IDS,
	MAX_PDF_WAIT_MS,
	advanceDocumentState,
	afterPdfFailure,
	newestDocument,
	readDocumentState,
	type CompanyDocumentState,
	type DocumentState,
	type ListedDocument,
} from '../../../../nodes/PartnerPayrollTrigger/helpers/documentState';

const doc = (
	documentId: string,
	createdAt: string,
	documentType: ListedDocument['documentType'] = 'incomeTax',
): ListedDocument => ({
	documentId,
	createdAt,
	documentType,
});

const p60 = doc('p60', '2025-05-20T09:15:00.000Z');
const p45 = doc('p45', '2026-08-29T16:05:44.000Z');
const letter = doc('ae', '2026-07-03T10:00:00.000Z', 'autoEnrolment');
const types = ['autoEnrolment', 'incomeTax'] as ListedDocument['documentType'][];
const none = { fireForExisting: false };
const HOUR = 60 * 60 * 1000;

describe('advanceDocumentState', () => {
	const stored: CompanyDocumentState = { types, seen: ['p60', 'ae'], waiting: {} };

	it('first poll: records, fires nothing', () => {
		const { state, newDocuments } = advanceDocumentState(undefined, types, [p60, letter], none);
		expect(newDocuments).toEqual([]);
		expect(state).toEqual(stored);
	});

	it('first poll with Fire for Existing Documents: every document, oldest first', () => {
		const { newDocuments } = advanceDocumentState(undefined, types, [p45, p60, letter], {
			fireForExisting: true,
		});
		expect(newDocuments.map((document) => document.documentId)).toEqual(['p60', 'ae', 'p45']);
	});

	it('fires each unseen document once', () => {
		const first = advanceDocumentState(stored, types, [p60, p45, letter], none);
		expect(first.newDocuments).toEqual([p45]);
		expect(advanceDocumentState(first.state, types, [p60, p45, letter], none).newDocuments).toEqual(
			[],
		);
	});

	it('deduplicates by documentId within one poll', () => {
		const twice = { ...p45, documentType: 'autoEnrolment' as const };
		expect(advanceDocumentState(stored, types, [p45, twice], none).newDocuments).toHaveLength(1);
	});

	it('documents of a listing added later are a baseline', () => {
		const incomeTaxOnly: CompanyDocumentState = {
			types: ['incomeTax'],
			seen: ['p60'],
			waiting: {},
		};
		const { newDocuments } = advanceDocumentState(incomeTaxOnly, types, [p60, letter, p45], none);
		expect(newDocuments).toEqual([p45]);
	});

	it('a document briefly missing from a listing does not fire again when it comes back', () => {
		const gone = advanceDocumentState(stored, types, [p60], none);
		expect(gone.state.seen).toEqual(['p60', 'ae']);
		expect(advanceDocumentState(gone.state, types, [p60, letter], none).newDocuments).toEqual([]);
	});

	it('keeps ids only: every listed one, then the most recently gone up to a bound', () => {
		const batch = Array.from({ length: 5000 }, (_, i) =>
			doc(`gb3001-p60-2027-${String(i).padStart(5, '0')}`, '2027-05-20T09:15:00.000Z'),
		);
		const first = advanceDocumentState(undefined, types, batch, none);
		expect(first.state.seen).toHaveLength(5000);
		expect(JSON.stringify(first.state).length).toBeLessThan(5000 * 28);
		// The batch leaves the listings: only the most recently gone ids stay.
		const next = advanceDocumentState(first.state, types, [p45], none);
		expect(next.newDocuments).toEqual([p45]);
		expect(next.state.seen).toHaveLength(1 + MAX_GONE_IDS);
		expect(next.state.seen[0]).toBe('p45');
	});

	it('a document listed late with an old createdAt still fires', () => {
		const backdated = doc('p60-late', '2020-05-20T09:15:00.000Z');
		expect(
			advanceDocumentState(stored, types, [p60, letter, backdated], none).newDocuments,
		).toEqual([backdated]);
	});
});

describe('several companies', () => {
	it('company A, then B, then A again: nothing of A fires again', () => {
		const options = { fireForExisting: true };
		const pollOf = (
			stored: DocumentState | undefined,
			companyId: string,
			listed: ListedDocument[],
		) => {
			const result = advanceDocumentState(stored?.companies[companyId], types, listed, options);
			return { ...result, state: withCompanyState(stored, companyId, result.state) };
		};
		const a1 = pollOf(undefined, 'GB3001', [p60, letter]);
		expect(a1.newDocuments).toHaveLength(2);
		const b = pollOf(a1.state, 'GB3002', [p45]);
		expect(b.newDocuments).toEqual([p45]);
		expect(pollOf(b.state, 'GB3001', [p60, letter]).newDocuments).toEqual([]);
	});
});

describe('afterPdfFailure', () => {
	const now = Date.parse('2026-11-15T12:00:00.000Z');
	const since = (hoursAgo: number) => ({
		documentType: 'incomeTax' as const,
		since: new Date(now - hoursAgo * HOUR).toISOString(),
	});

	it('waits after a failure that may pass, for up to a day from the first one', () => {
		expect(afterPdfFailure(undefined, true, now)).toBe('wait');
		expect(afterPdfFailure(since(23.9), true, now)).toBe('wait');
		expect(afterPdfFailure(since(24), true, now)).toBe('fireWithoutFile');
		expect(MAX_PDF_WAIT_MS).toBe(24 * HOUR);
	});

	it('fires without the file at once after a permanent error', () => {
		expect(afterPdfFailure(undefined, false, now)).toBe('fireWithoutFile');
	});
});

describe('readDocumentState, newestDocument', () => {
	it('reads what was written, and anything else as no state', () => {
		const { state } = advanceDocumentState(undefined, types, [p60], none);
		const written = withCompanyState(undefined, 'GB3001', state);
		expect(readDocumentState(JSON.parse(JSON.stringify(written)))).toEqual(written);
		expect(readDocumentState({ companyId: 'GB3001', types, seen: [] })).toBeUndefined();
		expect(
			readDocumentState({ companies: { GB3001: { types, seen: {} } }, recent: ['GB3001'] }),
		).toBeUndefined();
		expect(readDocumentState(undefined)).toBeUndefined();
	});

	it('newestDocument is the latest created', () => {
		expect(newestDocument([p60, p45, letter])).toBe(p45);
		expect(newestDocument([])).toBeUndefined();
	});
});
