import fc from 'fast-check';

// Random histories of one Partner Payroll Trigger node: what the service does between and during
// polls, the faults of each request, and what users and n8n do to the workflow. Everything is
// relative (companies by index, months by offset from the current month), so a shrunk history
// still means something; the runner resolves it and prints what happened.

export type EventName = 'payrollCompleted' | 'newDocument';
export type MonthsRule = 'both' | 'current' | 'previous' | 'specific';
export type DocType = 'autoEnrolment' | 'incomeTax';

/** Two to three companies; an integer-like id among them (n8n objects order such keys first). */
export const COMPANIES = ['GB1001', 'GB2002', '3003'];
export const ZONES = ['Europe/Paris', 'America/New_York', 'Pacific/Auckland', 'UTC'];
export const DOC_TYPES: DocType[] = ['autoEnrolment', 'incomeTax'];

/**
 * What happens to one request: answered, refused for a while (429 with Retry-After: 2), failing
 * (500, 503), cut (connection reset), silent until the attempt's timeout, slow (the clock moves on
 * before the answer; past the attempt's timeout it is a timeout), or a permanent 404 (PDFs only; any
 * other request answers normally).
 */
export type Fault =
	| 'ok'
	| '429'
	| '500'
	| '503'
	| 'reset'
	| 'timeout'
	| 'slow 3 s'
	| 'slow 12 s'
	| 'slow 40 s'
	| '404';

/**
 * A change at the service. `company` indexes COMPANIES (-1: the company watched at that moment);
 * `monthOffset` counts from the current month (workflow zone).
 */
export type ServiceOp =
	/** The month's payroll completes: a first completion, or a new run of a completed month. */
	| { op: 'complete'; company: number; monthOffset: number; format: 'ms' | 'plain' }
	| { op: 'reopen'; company: number; monthOffset: number }
	/** The same end date sent as `…00Z` instead of `…00.000Z` (or back): the same instant. */
	| { op: 'reformat'; company: number; monthOffset: number }
	/** Documents appear in a listing; `broken`: every third one's PDF answers 404 for good. */
	| { op: 'addDocuments'; company: number; type: DocType; count: number; broken: boolean };

/** The fault of the poll's n-th request, and a change at the service just before it is answered. */
export interface RequestPlan {
	fault: Fault;
	change?: ServiceOp;
}

export type Step =
	/** n8n's next scheduled poll, one minute after the last clock change. */
	| { step: 'poll'; requests: RequestPlan[]; pdfOutage: boolean }
	| { step: 'service'; ops: ServiceOp[] }
	| { step: 'clock'; ms: number }
	/** n8n restarts: every active workflow is built again from the saved static data. */
	| { step: 'restart' }
	/** The user publishes the workflow again, unchanged. */
	| { step: 'republish' }
	/** Edits, each published at once (n8n builds the workflow again from the saved static data). */
	| { step: 'editMonths'; months: MonthsRule; specific: number[] }
	| { step: 'editTimeZone'; zone: string }
	| { step: 'rename' }
	| { step: 'switchCompany'; company: number }
	| { step: 'editTypes'; types: DocType[] };

export interface PayrollOptions {
	fireForAlreadyCompleted: boolean;
	firstCompletionOnly?: boolean;
}

export interface DocumentOptions {
	fireForExisting: boolean;
	attachPdf: boolean;
}

export interface History {
	event: EventName;
	/** Epoch ms, on a whole minute, near a month boundary or a DST change. */
	start: number;
	zone: string;
	company: number;
	months: MonthsRule;
	specific: number[];
	types: DocType[];
	payrollOptions: PayrollOptions;
	documentOptions: DocumentOptions;
	steps: Step[];
}

/** Starts near month ends, year end and the DST changes of the zones above (2026). */
export const ANCHORS = [
	'2026-10-31T21:30:00Z', // month end: Paris and Auckland are in November first
	'2026-10-24T23:30:00Z', // Europe leaves summer time at 01:00 UTC on 25 October
	'2026-11-01T04:30:00Z', // New York leaves summer time at 06:00 UTC on 1 November
	'2026-09-26T12:30:00Z', // Auckland enters summer time at 14:00 UTC on 26 September
	'2026-12-31T21:30:00Z', // year end
	'2026-03-28T22:30:00Z', // Europe enters summer time at 01:00 UTC on 29 March, then March ends
].map((iso) => Date.parse(iso));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const weighted = <T>(...entries: Array<[number, fc.Arbitrary<T>]>) =>
	fc.oneof(...entries.map(([weight, arbitrary]) => ({ weight, arbitrary })));

// Mostly the first two companies, so that switching A → B → A happens often.
const company = weighted<number>([4, fc.constant(0)], [3, fc.constant(1)], [1, fc.constant(2)]);
/** A change at the service is mostly for the company watched at that moment (-1). */
const changedCompany = weighted<number>([4, fc.constant(-1)], [4, company]);

export const faultArb: fc.Arbitrary<Fault> = weighted<Fault>(
	[14, fc.constant('ok')],
	[3, fc.constantFrom<Fault>('429', '500', '503', 'reset')],
	[2, fc.constantFrom<Fault>('timeout', 'slow 3 s', 'slow 12 s', 'slow 40 s', '404')],
);

const payrollOp: fc.Arbitrary<ServiceOp> = weighted<ServiceOp>(
	[
		6,
		fc.record({
			op: fc.constant('complete' as const),
			company: changedCompany,
			monthOffset: fc.integer({ min: -2, max: 0 }),
			format: fc.constantFrom('ms' as const, 'plain' as const),
		}),
	],
	[
		2,
		fc.record({
			op: fc.constant('reopen' as const),
			company: changedCompany,
			monthOffset: fc.integer({ min: -2, max: 0 }),
		}),
	],
	[
		1,
		fc.record({
			op: fc.constant('reformat' as const),
			company: changedCompany,
			monthOffset: fc.integer({ min: -2, max: 0 }),
		}),
	],
);

const documentOp: fc.Arbitrary<ServiceOp> = fc.record({
	op: fc.constant('addDocuments' as const),
	company: changedCompany,
	type: fc.constantFrom(...DOC_TYPES),
	count: fc.constantFrom(1, 2, 3, 5, 20, 40),
	broken: fc.boolean(),
});

const requestPlan = (op: fc.Arbitrary<ServiceOp>): fc.Arbitrary<RequestPlan> =>
	fc.record(
		{
			fault: faultArb,
			change: weighted<ServiceOp | undefined>([9, fc.constant(undefined)], [1, op]),
		},
		{ requiredKeys: ['fault'] },
	) as fc.Arbitrary<RequestPlan>;

const monthsRule = fc.constantFrom<MonthsRule>('both', 'current', 'previous', 'specific');
const specificMonths = fc.uniqueArray(fc.integer({ min: -3, max: 1 }), {
	minLength: 1,
	maxLength: 3,
});
const docTypes = fc.subarray(DOC_TYPES, { minLength: 1 });

function stepArb(event: EventName, exclude: string[]): fc.Arbitrary<Step> {
	const op = event === 'payrollCompleted' ? payrollOp : documentOp;
	const steps: Array<{ name: Step['step']; weight: number; arbitrary: fc.Arbitrary<Step> }> = [
		{
			name: 'poll',
			weight: 8,
			arbitrary: fc.record({
				step: fc.constant('poll' as const),
				requests: fc.array(requestPlan(op), { maxLength: 6 }),
				pdfOutage: exclude.includes('pdfOutage')
					? fc.constant(false)
					: weighted([6, fc.constant(false)], [1, fc.constant(true)]),
			}),
		},
		{
			name: 'service',
			weight: 5,
			arbitrary: fc.record({
				step: fc.constant('service' as const),
				ops: fc.array(op, { minLength: 1, maxLength: 3 }),
			}),
		},
		{
			name: 'clock',
			weight: 2,
			arbitrary: fc.record({
				step: fc.constant('clock' as const),
				ms: weighted(
					[3, fc.constantFrom(15 * MINUTE, HOUR, 6 * HOUR)],
					[2, fc.constantFrom(DAY, 25 * HOUR)],
					[1, fc.constantFrom(10 * DAY, 31 * DAY)],
				),
			}),
		},
		{ name: 'restart', weight: 1, arbitrary: fc.constant({ step: 'restart' as const }) },
		{ name: 'republish', weight: 1, arbitrary: fc.constant({ step: 'republish' as const }) },
		{ name: 'rename', weight: 1, arbitrary: fc.constant({ step: 'rename' as const }) },
		{
			name: 'switchCompany',
			weight: 2,
			arbitrary: fc.record({ step: fc.constant('switchCompany' as const), company }),
		},
	];
	if (event === 'payrollCompleted') {
		steps.push(
			{
				name: 'editMonths',
				weight: 1,
				arbitrary: fc.record({
					step: fc.constant('editMonths' as const),
					months: monthsRule,
					specific: specificMonths,
				}),
			},
			{
				name: 'editTimeZone',
				weight: 1,
				arbitrary: fc.record({
					step: fc.constant('editTimeZone' as const),
					zone: fc.constantFrom(...ZONES),
				}),
			},
		);
	} else {
		steps.push({
			name: 'editTypes',
			weight: 1,
			arbitrary: fc.record({ step: fc.constant('editTypes' as const), types: docTypes }),
		});
	}
	// A step kind can be left out (MODEL_EXCLUDE), to look for a violation with another cause.
	return fc.oneof(...steps.filter((entry) => !exclude.includes(entry.name)));
}

export interface GeneratorOptions {
	maxSteps: number;
	/** Whether the node has the option `firstCompletionOnly` (today's code does not). */
	firstCompletionOnly: boolean;
	/** Step kinds (and `pdfOutage`) left out of the histories. */
	exclude?: string[];
}

export function historyArb(options: GeneratorOptions): fc.Arbitrary<History> {
	const common = {
		start: fc
			.tuple(fc.constantFrom(...ANCHORS), fc.integer({ min: 0, max: 180 }))
			.map(([anchor, minutes]) => anchor + minutes * MINUTE),
		zone: fc.constantFrom(...ZONES),
		company,
		months: monthsRule,
		specific: specificMonths,
		types: docTypes,
		payrollOptions: fc.record({
			// Mostly true: every observed run must then fire exactly once, the simplest model.
			fireForAlreadyCompleted: weighted([3, fc.constant(true)], [1, fc.constant(false)]),
			firstCompletionOnly: options.firstCompletionOnly
				? weighted([4, fc.constant(false)], [1, fc.constant(true)])
				: fc.constant(false),
		}),
		documentOptions: fc.record({
			fireForExisting: weighted([3, fc.constant(true)], [1, fc.constant(false)]),
			attachPdf: weighted([3, fc.constant(true)], [1, fc.constant(false)]),
		}),
	};
	const of = (event: EventName) =>
		fc.record({
			event: fc.constant(event),
			...common,
			steps: fc.array(stepArb(event, options.exclude ?? []), {
				minLength: 1,
				maxLength: options.maxSteps,
			}),
		});
	return weighted<History>([3, of('payrollCompleted')], [2, of('newDocument')]);
}
