import { startStubService } from '../../support/stub-service';
import { fakeWait as mockFakeWait } from './clock';
import { ANCHORS, type History, type Step } from './histories';
import { check } from './model';
import { HistoryRunner } from './runner';
import { ModelService } from './service';

// The findings of issue 19 as fixed histories, run by the model-based test's runner and checked by
// its model: each one broke the promise on the trigger of before the fix.

jest.mock('../../../nodes/shared/wait', () => ({
	wait: async (ms: number, signal?: AbortSignal) => await mockFakeWait(ms, signal),
}));

let stub: { url: string; close(): Promise<void> };
let current = new ModelService();

beforeAll(async () => {
	stub = await startStubService(async (request) => await current.handle(request));
});
afterAll(async () => await stub.close());

const payroll = (steps: Step[], fireForAlreadyCompleted = false): History => ({
	event: 'payrollCompleted',
	start: ANCHORS[0],
	zone: 'Europe/Paris',
	company: 0,
	months: 'both',
	specific: [0],
	types: ['incomeTax'],
	payrollOptions: { fireForAlreadyCompleted },
	documentOptions: { fireForExisting: false, attachPdf: false },
	steps,
});

const documents = (steps: Step[], fireForExisting = false, attachPdf = false): History => ({
	...payroll([]),
	event: 'newDocument',
	documentOptions: { fireForExisting, attachPdf },
	steps,
});

const poll = (...faults: Array<'ok' | 'timeout' | '503'>): Step => ({
	step: 'poll',
	requests: faults.map((fault) => ({ fault })),
	pdfOutage: false,
});
const complete = (monthOffset = 0, format: 'ms' | 'plain' = 'ms'): Step => ({
	step: 'service',
	ops: [{ op: 'complete', company: 0, monthOffset, format }],
});
const addDocuments = (company: number, count: number): Step => ({
	step: 'service',
	ops: [{ op: 'addDocuments', company, type: 'incomeTax', count, broken: false }],
});

/** `fireOnRerun`: set Fire Again on Re-Run, on a node that still has it (before issue 19). */
async function violationsOf(history: History, fireOnRerun = false): Promise<string[]> {
	current = new ModelService();
	const run = await new HistoryRunner(
		history,
		current,
		{
			partnerPayrollApi: {
				baseUrl: `${stub.url}/api/v1`,
				accessToken: 'model-token',
				authServerUrl: '',
			},
		},
		fireOnRerun,
	).run();
	const violations = check(history, run);
	return violations.length
		? [
				...run.transcript,
				...violations.map((violation) => `${violation.property}: ${violation.detail}`),
			]
		: [];
}

test('a new end date between two polls (reopened and completed again, unobserved) fires once more', async () => {
	const history = payroll([poll(), complete(), poll(), complete(), poll()]);
	expect(await violationsOf(history)).toEqual([]);
});

// Before issue 19 a new end date fired only with Fire Again on Re-Run: set, where the node has it.
test('an end date sent as …00Z instead of …00.000Z is the same run', async () => {
	const history = payroll(
		[
			complete(0, 'ms'),
			poll(),
			{ step: 'service', ops: [{ op: 'reformat', company: 0, monthOffset: 0 }] },
			poll(),
		],
		true,
	);
	expect(await violationsOf(history, true)).toEqual([]);
});

test('renaming the trigger node keeps its state', async () => {
	const history = payroll([complete(), poll(), { step: 'rename' }, poll()], true);
	expect(await violationsOf(history)).toEqual([]);
});

test('New Document: company A → B → A fires none of A’s documents again', async () => {
	const history = documents(
		[
			addDocuments(0, 2),
			addDocuments(1, 1),
			poll(),
			{ step: 'switchCompany', company: 1 },
			poll(),
			{ step: 'switchCompany', company: 0 },
			poll(),
		],
		true,
	);
	expect(await violationsOf(history)).toEqual([]);
});

test('New Document: a document added to A while B was watched fires after switching back', async () => {
	const history = documents([
		addDocuments(0, 1),
		poll(),
		addDocuments(0, 1),
		poll(),
		{ step: 'switchCompany', company: 1 },
		addDocuments(1, 1),
		poll(),
		addDocuments(1, 1),
		poll(),
		addDocuments(0, 1),
		{ step: 'switchCompany', company: 0 },
		poll(),
	]);
	expect(await violationsOf(history)).toEqual([]);
});

test('Attach PDF: a batch longer than the poll budget gets every file, none with pdfError', async () => {
	const history = documents([poll(), addDocuments(0, 20), poll(), poll()], false, true);
	expect(await violationsOf(history)).toEqual([]);
});

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * On the last evening of October (UTC), a poll in Pacific/Auckland (already November there) with
 * `months`; then Months becomes Current Month and the time zone Europe/Paris (still October), and n8n
 * is down while November completes and ends. The first poll fires October, so that n8n saves what it
 * saw before the edits rebuild the workflow.
 */
const zoneEditBackThenOutage = (months: History['months']): History => ({
	...payroll(
		[
			complete(-1),
			poll(),
			{ step: 'editMonths', months: 'current', specific: [0] },
			{ step: 'editTimeZone', zone: 'Europe/Paris' },
			poll(),
			{ step: 'clock', ms: 10 * DAY_MS },
			complete(0),
			{ step: 'clock', ms: 31 * DAY_MS },
			poll(),
		],
		true,
	),
	zone: 'Pacific/Auckland',
	months,
});

// Fixed in bfd552b: Current and Previous Month watched November in Auckland; the poll in Paris dropped
// it, and no poll asked about it again.
test('the month a time zone edit moved back out of the window fires after an outage over it', async () => {
	expect(await violationsOf(zoneEditBackThenOutage('both'))).toEqual([]);
});

// Found by the model's catch-up rule: Previous Month in Auckland watched October only, but the last
// polled month kept from Auckland (November) said Current Month had watched November, so the catch-up
// after the outage skipped it.
test('Previous → Current Month with a time zone edit back a month: November, completed during an outage, fires', async () => {
	expect(await violationsOf(zoneEditBackThenOutage('previous'))).toEqual([]);
});

// The catch-up, which random histories seldom reach (a poll on the last evening of October, then
// nothing until December): a trigger that did not catch up would never ask about November.
test('Current Month: November, completed during an outage over all of it, fires in December', async () => {
	const history: History = {
		...payroll([poll(), { step: 'clock', ms: 31 * DAY_MS }, complete(-1), poll()]),
		months: 'current',
	};
	expect(await violationsOf(history)).toEqual([]);
});
