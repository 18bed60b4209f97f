import type { DocumentState } from '../../../../nodes/PartnerPayrollTrigger/helpers/documentState';
import { POLL_BUDGET_MS } from '../../../../nodes/PartnerPayrollTrigger/helpers/pollBudget';
import { binaryBytes } from '../../../support/n8n-harness';
import { SandboxSession, sha256 } from '../../../support/fixtures';
import { pause } from '../../../support/network';
import {
	advanceWallClock,
	createTrigger,
	requestLines,
	restoreClock,
	snapshot,
	type TriggerPoller,
} from '../triggerHarness';

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());
afterEach(() => restoreClock());

const GB3001 = { event: 'newDocument', companyId: 'GB3001' };

const ALL_DOCUMENT_IDS = [
	'gb3001-ae-2026-001',
	'gb3001-ae-2026-003',
	'gb3001-p11d-2025-004',
	'gb3001-p45-2026-005',
	'gb3001-p60-2025-001',
	'gb3001-p60-2025-002',
];

async function gbTrigger(parameters = {}, scopes?: string[]) {
	const token = await session.token('GB3001', scopes);
	return createTrigger({ ...GB3001, ...parameters }, session.accessToken(token));
}

/** What the trigger stores for GB3001. */
function companyState(trigger: TriggerPoller) {
	const state = trigger.state().newDocument as unknown as DocumentState;
	return state.companies.GB3001;
}

/** The sandbox has no control to publish a document: forget some after the baseline instead. */
async function baselineWithout(trigger: TriggerPoller, ...documentIds: string[]) {
	expect(await trigger.poll()).toBeNull();
	forget(trigger, ...documentIds);
}

/** The P45's PDF answers 503 (a failure that may pass) to its next `attempts` downloads. */
async function failP45Pdf(attempts: number) {
	await session.injectFault({
		path: '/documents/gb3001-p45-2026-005',
		type: 'status',
		status: 503,
		retryAfter: 0,
		count: attempts,
	});
}

function forget(trigger: TriggerPoller, ...documentIds: string[]) {
	const { seen } = companyState(trigger);
	for (const documentId of documentIds) seen.splice(seen.indexOf(documentId), 1);
}

/**
 * A poll (or the editor's sample) in which the PDF of `documentId` starts in time and arrives after
 * the poll's budget ran out: the download is slowed, and the clock passes the budget meanwhile.
 */
async function pollWithPdfArrivingLate(
	trigger: TriggerPoller,
	documentId: string,
	mode?: 'trigger' | 'manual',
) {
	await session.injectFault({ path: `/documents/${documentId}`, type: 'delay', delayMs: 400 });
	const poll = trigger.poll(mode);
	await pause(150);
	advanceWallClock(POLL_BUDGET_MS + 1000);
	return await poll;
}

describe('newDocument: first activation', () => {
	it('records every listed document and fires nothing, with one request per listing', async () => {
		const trigger = await gbTrigger();
		await session.clearRequests();

		expect(await trigger.poll()).toBeNull();

		const state = companyState(trigger);
		expect([...state.seen].sort()).toEqual(ALL_DOCUMENT_IDS);
		expect(state).toMatchObject({ types: ['autoEnrolment', 'incomeTax'], waiting: {} });
		expect(await requestLines(session)).toEqual([
			'GET /companies/GB3001/auto-enrolment-documents',
			'GET /companies/GB3001/income-taxes-documents',
		]);
		expect(await trigger.poll()).toBeNull();
	});

	it('fires for every listed document, oldest first, with Fire for Existing Documents', async () => {
		const trigger = await gbTrigger({ options: { fireForExisting: true } });

		const [items] = (await trigger.poll())!;

		expect(items.map((item) => item.json.documentId)).toEqual([
			'gb3001-p60-2025-001',
			'gb3001-p60-2025-002',
			'gb3001-p11d-2025-004',
			'gb3001-ae-2026-001',
			'gb3001-ae-2026-003',
			'gb3001-p45-2026-005',
		]);
		expect(await trigger.poll()).toBeNull();
	});
});

describe('newDocument: new documents', () => {
	it('fires once per document not seen before, one item each, with its listing fields', async () => {
		const trigger = await gbTrigger();
		await baselineWithout(trigger, 'gb3001-p45-2026-005', 'gb3001-ae-2026-003');

		expect(await trigger.poll()).toEqual([
			[
				{
					json: {
						companyId: 'GB3001',
						documentType: 'autoEnrolment',
						documentId: 'gb3001-ae-2026-003',
						createdAt: '2026-07-03T10:00:02.000Z',
						contractId: 'ctr_gb3001_003',
						year: '2026',
						month: '07',
						name: 'Auto-enrolment-letter-2026-07-Priya-Shah.pdf',
						documentUrl: '/companies/GB3001/contracts/ctr_gb3001_003/documents/gb3001-ae-2026-003',
						dedupeKey: 'document:GB3001:gb3001-ae-2026-003',
						source: 'poll',
					},
				},
				{
					json: expect.objectContaining({
						companyId: 'GB3001',
						documentType: 'incomeTax',
						documentId: 'gb3001-p45-2026-005',
						type: 'P45',
					}),
				},
			],
		]);
		expect(await trigger.poll()).toBeNull();
	});

	it('attaches each new PDF with every byte intact when asked', async () => {
		const trigger = await gbTrigger({ options: { attachPdf: true, binaryPropertyName: 'pdf' } });
		await baselineWithout(trigger, 'gb3001-p60-2025-002', 'gb3001-ae-2026-001');
		await session.clearRequests();

		const [items] = (await trigger.poll())!;

		expect(items.map((item) => item.json.documentId)).toEqual([
			'gb3001-p60-2025-002',
			'gb3001-ae-2026-001',
		]);
		for (const item of items) {
			const documentId = String(item.json.documentId);
			expect(sha256(binaryBytes(item, 'pdf'))).toBe(
				sha256(session.sandbox.seed.document('GB3001', documentId)),
			);
			expect(item.binary!.pdf).toMatchObject({
				fileName: item.json.name,
				mimeType: 'application/pdf',
			});
			// The same fields whatever the outcome.
			expect(item.json.pdfError).toBeNull();
		}
		// Two listings, then one download per new document from its listed documentUrl; nothing for
		// the documents already seen.
		expect(await requestLines(session)).toEqual([
			'GET /companies/GB3001/auto-enrolment-documents',
			'GET /companies/GB3001/income-taxes-documents',
			...items.map((item) => `GET ${String(item.json.documentUrl)}`),
		]);
		expect(items.every((item) => String(item.json.documentUrl).includes('/contracts/'))).toBe(true);
		expect(await trigger.poll()).toBeNull();
	});

	it('a PDF that fails for now waits for a later poll, blocks nothing, and fires with its file', async () => {
		const trigger = await gbTrigger({ options: { attachPdf: true } });
		await baselineWithout(trigger, 'gb3001-p45-2026-005', 'gb3001-ae-2026-001');
		await failP45Pdf(4); // the bounded attempts of one poll
		await session.clearRequests();

		const [items] = (await trigger.poll())!;

		// The other document fires with its file; the failing one is not fired without it.
		expect(items.map((item) => item.json.documentId)).toEqual(['gb3001-ae-2026-001']);
		expect(sha256(binaryBytes(items[0]))).toBe(
			sha256(session.sandbox.seed.document('GB3001', 'gb3001-ae-2026-001')),
		);
		// Bounded: 4 attempts at the failing PDF in this poll.
		const lines = await requestLines(session);
		expect(lines.filter((line) => line.endsWith('/gb3001-p45-2026-005'))).toHaveLength(4);
		expect(Object.keys(companyState(trigger).waiting)).toEqual(['gb3001-p45-2026-005']);

		// The service answers again: the document fires, once, with every byte of its file.
		const [[later]] = (await trigger.poll())!;
		expect(later.json).toMatchObject({ documentId: 'gb3001-p45-2026-005', pdfError: null });
		expect(sha256(binaryBytes(later))).toBe(
			sha256(session.sandbox.seed.document('GB3001', 'gb3001-p45-2026-005')),
		);
		expect(companyState(trigger).waiting).toEqual({});
		expect(await trigger.poll()).toBeNull();
	}, 30_000);

	it('a waiting PDF survives an edit that stops watching its listing, and fires once it is watched again', async () => {
		const token = await session.token('GB3001');
		const both = createTrigger(
			{ ...GB3001, options: { attachPdf: true } },
			session.accessToken(token),
		);
		await baselineWithout(both, 'gb3001-p45-2026-005');
		await failP45Pdf(4); // the bounded attempts of one poll
		expect(await both.poll()).toBeNull();
		const lettersOnly = createTrigger(
			{ ...GB3001, documentTypes: ['autoEnrolment'], options: { attachPdf: true } },
			session.accessToken(token),
			{ staticData: snapshot(both.staticData) },
		);
		expect(await lettersOnly.poll()).toBeNull();
		const bothAgain = createTrigger(
			{ ...GB3001, options: { attachPdf: true } },
			session.accessToken(token),
			{ staticData: snapshot(lettersOnly.staticData) },
		);

		const [[item]] = (await bothAgain.poll())!;
		expect(item.json).toMatchObject({ documentId: 'gb3001-p45-2026-005', pdfError: null });
		expect(await bothAgain.poll()).toBeNull();
	}, 30_000);

	it('documents waiting for their PDF fire once, without a file, when Attach PDF is turned off', async () => {
		const token = await session.token('GB3001');
		const withPdf = createTrigger(
			{ ...GB3001, options: { attachPdf: true } },
			session.accessToken(token),
		);
		await baselineWithout(withPdf, 'gb3001-p45-2026-005');
		await failP45Pdf(4); // the bounded attempts of one poll
		expect(await withPdf.poll()).toBeNull();
		const withoutPdf = createTrigger({ ...GB3001 }, session.accessToken(token), {
			staticData: snapshot(withPdf.staticData),
		});

		const [[item]] = (await withoutPdf.poll())!;
		expect(item.json.documentId).toBe('gb3001-p45-2026-005');
		expect(item.binary).toBeUndefined();
		expect(await withoutPdf.poll()).toBeNull();
	}, 30_000);

	it('a PDF still failing a day after its first failure fires without the file, saying why', async () => {
		const trigger = await gbTrigger({ options: { attachPdf: true } });
		await baselineWithout(trigger, 'gb3001-p45-2026-005');
		await failP45Pdf(8); // the attempts of two polls
		expect(await trigger.poll()).toBeNull();
		advanceWallClock(24 * 60 * 60 * 1000);

		const [[item]] = (await trigger.poll())!;
		expect(item.binary).toBeUndefined();
		expect(item.json).toMatchObject({
			documentId: 'gb3001-p45-2026-005',
			pdfError: 'The Partner Payroll service failed (HTTP 503)',
		});
		expect(await trigger.poll()).toBeNull();
	}, 30_000);

	it('a PDF the service refuses for good (404) fires at once without the file', async () => {
		const trigger = await gbTrigger({ options: { attachPdf: true } });
		await baselineWithout(trigger, 'gb3001-p45-2026-005');
		await session.injectFault({
			path: '/documents/gb3001-p45-2026-005',
			type: 'status',
			status: 404,
		});

		const [[item]] = (await trigger.poll())!;
		expect(item.binary).toBeUndefined();
		expect(String(item.json.pdfError)).toMatch(/^Not found/);
		expect(await trigger.poll()).toBeNull();
	});

	it('PDFs that could not start within the poll budget wait for the next poll, none lost', async () => {
		const trigger = await gbTrigger({ options: { attachPdf: true } });
		await baselineWithout(trigger, 'gb3001-ae-2026-001', 'gb3001-p45-2026-005');
		// The older document's PDF is slow; meanwhile the poll's budget runs out.
		const [[first]] = (await pollWithPdfArrivingLate(trigger, 'gb3001-ae-2026-001'))!;
		expect(first.json.documentId).toBe('gb3001-ae-2026-001');
		expect(sha256(binaryBytes(first))).toBe(
			sha256(session.sandbox.seed.document('GB3001', 'gb3001-ae-2026-001')),
		);

		const [[next]] = (await trigger.poll())!;
		expect(next.json.documentId).toBe('gb3001-p45-2026-005');
		expect(sha256(binaryBytes(next))).toBe(
			sha256(session.sandbox.seed.document('GB3001', 'gb3001-p45-2026-005')),
		);
		expect(await trigger.poll()).toBeNull();
	});

	it('the PDF whose download the end of the budget cuts waits, and fires with its file at the next poll', async () => {
		const trigger = await gbTrigger({ options: { attachPdf: true } });
		await baselineWithout(trigger, 'gb3001-p45-2026-005');
		// The listing is slow and the clock runs meanwhile: the download starts with under a second left.
		await session.injectFault({ path: '/income-taxes-documents', type: 'delay', delayMs: 300 });
		await session.injectFault({
			path: '/documents/gb3001-p45-2026-005',
			type: 'delay',
			delayMs: 3000,
		});
		const poll = trigger.poll();
		await pause(100);
		advanceWallClock(POLL_BUDGET_MS - 800);
		expect(await poll).toBeNull();
		expect(Object.keys(companyState(trigger).waiting)).toEqual(['gb3001-p45-2026-005']);

		const [[item]] = (await trigger.poll())!;
		expect(item.json).toMatchObject({ documentId: 'gb3001-p45-2026-005', pdfError: null });
		expect(sha256(binaryBytes(item))).toBe(
			sha256(session.sandbox.seed.document('GB3001', 'gb3001-p45-2026-005')),
		);
		expect(await trigger.poll()).toBeNull();
	}, 30_000);

	it('watches only the chosen listing, which needs only its own scope', async () => {
		const trigger = await gbTrigger({ documentTypes: ['incomeTax'] }, ['contracts:payslips:read']);
		await baselineWithout(trigger, 'gb3001-p11d-2025-004');
		await session.clearRequests();

		const [[item]] = (await trigger.poll())!;

		expect(item.json).toMatchObject({
			documentId: 'gb3001-p11d-2025-004',
			documentType: 'incomeTax',
		});
		expect(await requestLines(session)).toEqual(['GET /companies/GB3001/income-taxes-documents']);
	});

	it('a listing added later is a baseline: its documents do not fire', async () => {
		const token = await session.token('GB3001');
		const incomeTaxOnly = createTrigger(
			{ ...GB3001, documentTypes: ['incomeTax'] },
			session.accessToken(token),
		);
		await incomeTaxOnly.poll();

		const both = createTrigger({ ...GB3001 }, session.accessToken(token), {
			staticData: snapshot(incomeTaxOnly.staticData),
		});
		expect(await both.poll()).toBeNull();
		expect([...companyState(both).seen].sort()).toEqual(ALL_DOCUMENT_IDS);
	});
});

describe('newDocument: errors', () => {
	it('a company outside the UK gets the clear country error, and nothing is stored', async () => {
		const token = await session.token('FR1001');
		const trigger = createTrigger({ event: 'newDocument' }, session.accessToken(token));

		await expect(trigger.poll()).rejects.toMatchObject({
			httpCode: '404',
			description: expect.stringContaining('the United Kingdom (GB) only'),
		});
		expect(trigger.state()).toEqual({});
	});

	it('a missing scope names it', async () => {
		const trigger = await gbTrigger({}, ['contracts:payslips:read']);
		await expect(trigger.poll()).rejects.toMatchObject({ message: 'Missing scope "pension:read"' });
	});
});

describe('newDocument: Fetch Test Event (manual mode)', () => {
	it('returns the newest document with its PDF and leaves the state unchanged', async () => {
		const trigger = await gbTrigger({ options: { attachPdf: true } });
		await baselineWithout(trigger, 'gb3001-p45-2026-005');
		const before = snapshot(trigger.staticData);

		const [[item]] = (await trigger.poll('manual'))!;

		expect(item.json).toMatchObject({ documentId: 'gb3001-p45-2026-005', companyId: 'GB3001' });
		expect(sha256(binaryBytes(item))).toBe(
			sha256(session.sandbox.seed.document('GB3001', 'gb3001-p45-2026-005')),
		);
		expect(snapshot(trigger.staticData)).toEqual(before);
		// Still news for the active trigger.
		expect((await trigger.poll())?.[0]).toHaveLength(1);
	});

	it('shows the sample whose PDF started in time but arrived after the poll budget ran out', async () => {
		const trigger = await gbTrigger({ options: { attachPdf: true } });
		const [[item]] = (await pollWithPdfArrivingLate(trigger, 'gb3001-p45-2026-005', 'manual'))!;
		expect(item.json.documentId).toBe('gb3001-p45-2026-005');
		expect(sha256(binaryBytes(item))).toBe(
			sha256(session.sandbox.seed.document('GB3001', 'gb3001-p45-2026-005')),
		);
	});

	it('creates no state when the trigger has never been active', async () => {
		const trigger = await gbTrigger();
		expect((await trigger.poll('manual'))?.[0]).toHaveLength(1);
		expect(snapshot(trigger.staticData)).toEqual({});
	});
});
