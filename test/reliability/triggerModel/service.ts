import type { StubAnswer, StubRequest } from '../../support/stub-service';
import { clock } from './clock';
import type { DocType, Fault, RequestPlan } from './histories';

// The Partner Payroll API as the model sees it: payroll statuses per (company, month), two UK
// listings per company, one PDF per document; every answer goes through the fault of the request
// plan, and every answer is recorded (what the trigger could have observed).

export type EndFormat = 'ms' | 'plain';

/** `2026-10-31T17:42:05.000Z`, or the same instant as `2026-10-31T17:42:05Z`. */
export function isoOf(ms: number, format: EndFormat): string {
	const text = new Date(ms).toISOString();
	return format === 'ms' ? text : text.replace(/\.000Z$/, 'Z');
}

interface MonthEntry {
	status: 'completed' | 'not_completed';
	end: number | null;
	format: EndFormat;
	/** Every end date this month ever had: a new run never reuses one. */
	ends: number[];
}

export interface ServiceDocument {
	company: string;
	type: DocType;
	documentId: string;
	createdAt: string;
	name: string;
	/** Its PDF answers 404, for good. */
	broken: boolean;
	bytes: Buffer;
	addedAt: number;
}

export type Observation =
	| {
			kind: 'status';
			company: string;
			month: string;
			status: string;
			/** The end date's instant (epoch ms) and text as sent; null when not completed. */
			end: number | null;
			text: string | null;
			at: number;
	  }
	| { kind: 'listing'; company: string; type: DocType; documentIds: string[]; at: number }
	| { kind: 'pdf'; company: string; documentId: string; status: number; at: number };

/** What the poll in progress does to each request. */
export interface PollPlan {
	requests: RequestPlan[];
	pdfOutage: boolean;
	/** Applies a change at the service (the runner resolves months and companies). */
	applyChange(change: NonNullable<RequestPlan['change']>): void;
}

const LISTING_TYPES: Record<string, DocType> = {
	'auto-enrolment-documents': 'autoEnrolment',
	'income-taxes-documents': 'incomeTax',
};

/** Time a PDF download takes when all goes well: about 15 fit in a poll's 30 s budget. */
export const PDF_MS = 2000;
/** n8n's attempt timeout when the request carries none (requestPolicy's ATTEMPT_TIMEOUT_MS). */
const DEFAULT_ATTEMPT_TIMEOUT_MS = 25_000;

export class ModelService {
	private readonly months = new Map<string, MonthEntry>();
	private readonly listings = new Map<string, ServiceDocument[]>();
	readonly documents = new Map<string, ServiceDocument>();
	private nextDocument = 1;
	/** Answers of the poll in progress (the runner takes them after the poll). */
	observations: Observation[] = [];
	plan: PollPlan | undefined;
	private requestIndex = 0;
	requests = 0;
	/** One line per request of the poll in progress, for the printed history. */
	log: string[] = [];

	// --- changes at the service ------------------------------------------------------------

	private monthEntry(company: string, month: string): MonthEntry {
		const key = `${company}|${month}`;
		let entry = this.months.get(key);
		if (!entry) {
			entry = { status: 'not_completed', end: null, format: 'ms', ends: [] };
			this.months.set(key, entry);
		}
		return entry;
	}

	/** A completion with a new end date (on whole seconds, never one this month had before). */
	complete(company: string, month: string, format: EndFormat): string {
		const entry = this.monthEntry(company, month);
		let end = Math.floor(clock.now() / 1000) * 1000 - 5000;
		while (entry.ends.includes(end)) end -= 1000;
		entry.ends.push(end);
		Object.assign(entry, { status: 'completed', end, format });
		return `${company} ${month} completed, executionEndDate ${isoOf(end, format)}`;
	}

	reopen(company: string, month: string): string {
		const entry = this.monthEntry(company, month);
		Object.assign(entry, { status: 'not_completed', end: null });
		return `${company} ${month} reopened (not_completed)`;
	}

	reformat(company: string, month: string): string {
		const entry = this.monthEntry(company, month);
		if (entry.status !== 'completed' || entry.end === null)
			return `${company} ${month} reformat: not completed, nothing`;
		entry.format = entry.format === 'ms' ? 'plain' : 'ms';
		return `${company} ${month} end date now sent as ${isoOf(entry.end, entry.format)}`;
	}

	addDocuments(company: string, type: DocType, count: number, broken: boolean): string {
		const key = `${company}|${type}`;
		const listing = this.listings.get(key) ?? [];
		const ids: string[] = [];
		for (let index = 0; index < count; index++) {
			const documentId = `D${this.nextDocument++}`;
			const document: ServiceDocument = {
				company,
				type,
				documentId,
				createdAt: new Date(clock.now() - (count - index) * 1000).toISOString(),
				name: `${type === 'incomeTax' ? 'P60' : 'Auto-enrolment-letter'}-${documentId}.pdf`,
				broken: broken && index % 3 === 0,
				bytes: Buffer.from(
					`%PDF-1.4\n% ${company} ${documentId}\n${'x'.repeat(documentId.length * 7)}\n%%EOF\n`,
				),
				addedAt: clock.now(),
			};
			listing.push(document);
			this.documents.set(`${company}|${documentId}`, document);
			ids.push(documentId + (document.broken ? ' (PDF 404)' : ''));
		}
		this.listings.set(key, listing);
		const shown =
			ids.length > 6
				? `${ids.slice(0, 3).join(', ')} … ${ids.slice(-2).join(', ')}`
				: ids.join(', ');
		return `${company} ${type}: ${count} document(s) added: ${shown}`;
	}

	// --- requests -----------------------------------------------------------------------------

	startPoll(plan: PollPlan): void {
		this.plan = plan;
		this.requestIndex = 0;
		this.observations = [];
		this.log = [];
	}

	endPoll(): void {
		this.plan = undefined;
	}

	async handle(request: StubRequest): Promise<StubAnswer> {
		this.requests++;
		const plan = this.plan;
		const requestPlan = plan?.requests[this.requestIndex++] ?? { fault: 'ok' as Fault };
		if (requestPlan.change && plan) plan.applyChange(requestPlan.change);
		const timeoutHeader = Number(request.headers['x-model-timeout']);
		const attemptTimeout =
			Number.isFinite(timeoutHeader) && timeoutHeader > 0
				? timeoutHeader
				: DEFAULT_ATTEMPT_TIMEOUT_MS;

		const match = /^\/api\/v1\/companies\/([^/]+)(\/.*)$/.exec(request.path);
		const company = match ? decodeURIComponent(match[1]) : '';
		const below = match?.[2] ?? '';
		const documentMatch = /^(?:\/contracts\/[^/]+)?\/documents\/([^/]+)$/.exec(below);
		const document = documentMatch
			? this.documents.get(`${company}|${decodeURIComponent(documentMatch[1])}`)
			: undefined;
		const what = `${request.method} ${request.path.replace(/^\/api\/v1/, '')}${request.query.date ? `?date=${request.query.date}` : ''}`;

		let fault = requestPlan.fault;
		if (document?.broken) fault = '404';
		else if (documentMatch && plan?.pdfOutage) fault = '503';
		else if (fault === '404' && !documentMatch) fault = 'ok';

		const note = (outcome: string) => this.log.push(`${what} → ${outcome}`);
		const timeOut = (): StubAnswer => {
			clock.advance(attemptTimeout);
			note(`no answer, timed out after ${attemptTimeout / 1000} s`);
			return { reset: true };
		};
		switch (fault) {
			case '429':
				note('429 (Retry-After: 2)');
				return {
					status: 429,
					json: { message: 'Too many requests' },
					headers: { 'Retry-After': '2' },
				};
			case '500':
			case '503':
				note(fault);
				return { status: Number(fault), json: { message: 'Service failure' } };
			case '404':
				if (document) this.recordPdf(company, document.documentId, 404);
				note('404');
				return { status: 404, json: { message: 'Ressource not found' } };
			case 'reset':
				note('connection reset');
				return { reset: true };
			case 'timeout':
				return timeOut();
			case 'slow 3 s':
			case 'slow 12 s':
			case 'slow 40 s': {
				const ms = Number(fault.split(' ')[1]) * 1000;
				if (ms >= attemptTimeout) return timeOut();
				clock.advance(ms);
				break;
			}
			default:
				break;
		}

		if (documentMatch) {
			if (!document) {
				note('404 (no such document)');
				return { status: 404, json: { message: 'Ressource not found' } };
			}
			if (PDF_MS >= attemptTimeout) return timeOut();
			clock.advance(PDF_MS);
			this.recordPdf(company, document.documentId, 200);
			note(`PDF of ${document.documentId}`);
			return { status: 200, bytes: document.bytes };
		}
		if (below === '/payroll-status') {
			const month = String(request.query.date ?? '');
			const entry = this.months.get(`${company}|${month}`);
			const completed = entry?.status === 'completed' && entry.end !== null;
			const text = completed ? isoOf(entry.end!, entry.format) : null;
			this.observations.push({
				kind: 'status',
				company,
				month,
				status: completed ? 'completed' : 'not_completed',
				end: completed ? entry.end : null,
				text,
				at: clock.now(),
			});
			note(completed ? `completed, ${text}` : 'not_completed');
			return {
				status: 200,
				json: { status: completed ? 'completed' : 'not_completed', executionEndDate: text },
			};
		}
		const type = LISTING_TYPES[below.slice(1)];
		if (type) {
			const listing = this.listings.get(`${company}|${type}`) ?? [];
			this.observations.push({
				kind: 'listing',
				company,
				type,
				documentIds: listing.map((listed) => listed.documentId),
				at: clock.now(),
			});
			note(`${listing.length} document(s)`);
			return {
				status: 200,
				json: {
					documents: listing.map((listed) => ({
						documentId: listed.documentId,
						createdAt: listed.createdAt,
						...(type === 'incomeTax' ? { type: 'P60' } : {}),
						name: listed.name,
						documentUrl: `/companies/${encodeURIComponent(company)}/documents/${listed.documentId}`,
					})),
				},
			};
		}
		note('404 (unknown path)');
		return { status: 404, json: { message: 'Ressource not found' } };
	}

	private recordPdf(company: string, documentId: string, status: number) {
		this.observations.push({ kind: 'pdf', company, documentId, status, at: clock.now() });
	}

	/** The end date of the month's run if the month is completed now, else null. */
	completedRun(company: string, month: string): number | null {
		const entry = this.months.get(`${company}|${month}`);
		return entry?.status === 'completed' ? entry.end : null;
	}

	/** Whether this (company, month) ever completed with this end date. */
	isCompletedRun(company: string, month: string, end: number): boolean {
		return this.monthEntry(company, month).ends.includes(end);
	}
}
