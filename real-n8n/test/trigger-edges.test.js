'use strict';
// The trigger's edges inside a real n8n (`n8n start`, published workflow), on relative windows computed
// from the real clock (Europe/Paris): the workflow edited the way the editor edits it (saved without
// static data, Months changed) and published again keeps what it knows and fires nothing new, even
// for a month that fired and re-enters the selection; a month reopened then completed fires exactly
// one more execution.
const {
	pollSchedule,
	TRIGGER_NAME,
	monthFromNow,
	startPublishedTrigger,
	setPayrollStatus,
	statusPollsOf,
	waitForStatusPolls,
	triggerItems,
	editAndPublish,
	storedTriggerState,
} = require('../lib');

const SCHEDULE = pollSchedule();
jest.setTimeout(SCHEDULE.waitMs(12) + 60_000);

const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
const WORKFLOW_ID = 'wfTriggerEdges01';
const COMPANY = 'FR1001';
const TIME_ZONE = 'Europe/Paris';
const CURRENT = monthFromNow(0, TIME_ZONE);
const PREVIOUS = monthFromNow(-1, TIME_ZONE);

let trigger;
let sandbox;
let rest;
let api;

const setStatus = (month, status, executionEndDate = null) =>
	setPayrollStatus(sandbox, { companyId: COMPANY, month, status, executionEndDate });
/** Payroll-status requests for `month` so far: one per poll that watches it. */
const pollsOf = (month) => statusPollsOf(sandbox, COMPANY, month);
const waitForPollsOf = (month, since, count) =>
	waitForStatusPolls(sandbox, { companyId: COMPANY, month, since, count, schedule: SCHEDULE });

/** Quiet polls watching `month`: enough for a wrong execution to show up. */
async function quietPollsOf(month) {
	await waitForPollsOf(month, await pollsOf(month), SCHEDULE.quietPolls);
}

/** The trigger's items of every execution, oldest execution first. */
const itemsOldestFirst = (executions) =>
	[...executions]
		.sort((a, b) => Number(a.id) - Number(b.id))
		.map((execution) => triggerItems(execution));
const firedItems = async () => itemsOldestFirst(await api.executions(WORKFLOW_ID));
const waitForExecutions = async (count) =>
	itemsOldestFirst(await api.finishedExecutions(WORKFLOW_ID, count, SCHEDULE.waitMs(2)));

/** The trigger's stored state of the company, as n8n's database holds it. */
async function storedCompanyState() {
	return (await storedTriggerState(rest, WORKFLOW_ID))?.payrollCompleted?.companies?.[COMPANY];
}

/** Edits the trigger's parameters in the editor, then publishes. */
const editAndPublishParameters = (changeParameters) =>
	editAndPublish(rest, WORKFLOW_ID, (loaded) => ({
		nodes: loaded.nodes.map((node) =>
			node.name === TRIGGER_NAME
				? { ...node, parameters: changeParameters(node.parameters) }
				: node,
		),
		connections: loaded.connections,
	}));

beforeAll(async () => {
	trigger = await startPublishedTrigger({
		prefix: 'n8n-e2e-trigger-edges-',
		workflow: { id: WORKFLOW_ID, name: 'Payroll completed, edited (e2e)' },
		credential: { id: 'ppEdgesToken001', name: 'Edges token' },
		companyId: COMPANY,
		parameters: {
			companyId: COMPANY,
			months: 'previous',
			options: { fireForAlreadyCompleted: true },
		},
		timeZone: TIME_ZONE,
		schedule: SCHEDULE,
		beforeStart: async (startedSandbox) => {
			sandbox = startedSandbox;
			await setStatus(PREVIOUS, 'completed', '2026-01-28T17:00:00.000Z');
			await setStatus(CURRENT, 'not_completed');
		},
	});
	({ rest, api } = trigger);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await trigger?.dispose();
});

it('Previous Month with Fire for Months Already Completed When Watching Starts: the completed month fires once', async () => {
	const [items] = await waitForExecutions(1);
	expect(items).toEqual([
		expect.objectContaining({ month: PREVIOUS, status: 'completed', isRerun: false }),
	]);
	await quietPollsOf(PREVIOUS);
	expect(await firedItems()).toHaveLength(1);
	expect(await storedCompanyState()).toMatchObject({
		fired: { [PREVIOUS]: '2026-01-28T17:00:00.000Z' },
		selection: 'previous',
	});
});

it('edited to Current Month, then widened to Current and Previous Month, each published again: state kept, nothing new fires', async () => {
	await editAndPublishParameters((parameters) => ({ ...parameters, months: 'current' }));
	await quietPollsOf(CURRENT);
	expect(await firedItems()).toHaveLength(1);
	// The edit kept what is known: the month that fired is remembered, though no longer watched.
	expect(await storedCompanyState()).toMatchObject({
		fired: { [PREVIOUS]: '2026-01-28T17:00:00.000Z' },
		selection: 'current',
	});

	// The month that fired re-enters the selection, already completed, with the option still on.
	const previousPolls = await pollsOf(PREVIOUS);
	await editAndPublishParameters((parameters) => ({ ...parameters, months: 'both' }));
	await waitForPollsOf(PREVIOUS, previousPolls, 1 + SCHEDULE.quietPolls);
	expect(await firedItems()).toHaveLength(1);
	expect(await storedCompanyState()).toMatchObject({
		fired: { [PREVIOUS]: '2026-01-28T17:00:00.000Z' },
		selection: 'both',
	});
});

it('after the edits, a month reopened then completed fires exactly one more execution, marked as a re-run', async () => {
	await setStatus(PREVIOUS, 'not_completed');
	await quietPollsOf(PREVIOUS);
	expect(await firedItems()).toHaveLength(1);

	await setStatus(PREVIOUS, 'completed', '2026-02-03T09:00:00.000Z');
	const all = await waitForExecutions(2);
	expect(all[1]).toEqual([
		expect.objectContaining({
			month: PREVIOUS,
			status: 'completed',
			executionEndDate: '2026-02-03T09:00:00.000Z',
			isRerun: true,
		}),
	]);
	await quietPollsOf(PREVIOUS);
	expect(await firedItems()).toHaveLength(2);
});

it('the current month completing fires once, with isRerun false', async () => {
	await setStatus(CURRENT, 'completed', '2026-02-27T16:00:00.000Z');
	const all = await waitForExecutions(3);
	expect(all[2]).toEqual([expect.objectContaining({ month: CURRENT, isRerun: false })]);
	await quietPollsOf(CURRENT);
	expect(await firedItems()).toHaveLength(3);
});
