import {
	advanceDocumentState,
	newestDocument,
	readDocumentState,
	rememberDocuments,
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
const current = {
	companyId: 'GB3001',
	types: ['autoEnrolment', 'incomeTax'] as ListedDocument['documentType'][],
};
const none = { fireForExisting: false };

describe('advanceDocumentState', () => {
	const stored: DocumentState = { ...current, seen: { p60: p60.createdAt, ae: letter.createdAt } };

	it('first poll: records, fires nothing', () => {
		const { state, newDocuments } = advanceDocumentState(undefined, current, [p60, letter], none);
		expect(newDocuments).toEqual([]);
		expect(state).toEqual(stored);
	});

	it('first poll with Fire for Existing Documents: every document, oldest first', () => {
		const { newDocuments } = advanceDocumentState(undefined, current, [p45, p60, letter], {
			fireForExisting: true,
		});
		expect(newDocuments.map((document) => document.documentId)).toEqual(['p60', 'ae', 'p45']);
	});

	it('fires each unseen document once', () => {
		const first = advanceDocumentState(stored, current, [p60, p45, letter], none);
		expect(first.newDocuments).toEqual([p45]);
		expect(
			advanceDocumentState(first.state, current, [p60, p45, letter], none).newDocuments,
		).toEqual([]);
	});

	it('deduplicates by documentId within one poll', () => {
		const twice = { ...p45, documentType: 'autoEnrolment' as const };
		expect(advanceDocumentState(stored, current, [p45, twice], none).newDocuments).toHaveLength(1);
	});

	it('documents of a listing added later are a baseline', () => {
		const incomeTaxOnly: DocumentState = {
			companyId: 'GB3001',
			types: ['incomeTax'],
			seen: { p60: p60.createdAt },
		};
		const { newDocuments } = advanceDocumentState(incomeTaxOnly, current, [p60, letter, p45], none);
		expect(newDocuments).toEqual([p45]);
	});

	it('another company: baseline again', () => {
		const { newDocuments } = advanceDocumentState(
			stored,
			{ ...current, companyId: 'GB9999' },
			[p45],
			none,
		);
		expect(newDocuments).toEqual([]);
	});

	it('a document briefly missing from a listing does not fire again when it comes back', () => {
		const gone = advanceDocumentState(stored, current, [letter], none);
		expect(gone.state.seen).toHaveProperty('p60');
		expect(advanceDocumentState(gone.state, current, [p60, letter], none).newDocuments).toEqual([]);
	});
});

describe('rememberDocuments', () => {
	it('keeps every listed id even above the limit', () => {
		expect(Object.keys(rememberDocuments({}, [p60, p45, letter], 2)).sort()).toEqual([
			'ae',
			'p45',
			'p60',
		]);
	});

	it('fills up to the limit with the most recent ids that left the listings', () => {
		const seen = {
			old: '2024-01-01T00:00:00.000Z',
			recent: '2026-01-01T00:00:00.000Z',
			mid: '2025-01-01T00:00:00.000Z',
		};
		expect(Object.keys(rememberDocuments(seen, [p45], 3))).toEqual(['p45', 'recent', 'mid']);
	});
});

describe('readDocumentState, newestDocument', () => {
	it('reads what was written, and anything else as no state', () => {
		const { state } = advanceDocumentState(undefined, current, [p60], none);
		expect(readDocumentState(JSON.parse(JSON.stringify(state)))).toEqual(state);
		expect(readDocumentState({ companyId: 'GB3001' })).toBeUndefined();
		expect(readDocumentState(undefined)).toBeUndefined();
	});

	it('newestDocument is the latest created', () => {
		expect(newestDocument([p60, p45, letter])).toBe(p45);
		expect(newestDocument([])).toBeUndefined();
	});
});
