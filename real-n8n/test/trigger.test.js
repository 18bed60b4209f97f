'use strict';
// The trigger inside a real n8n (`n8n start`, workflow published, the lab's poll schedule: every 10 s,
// lib/poll-schedule.js), watching a relative window (Current and Previous Month, Europe/Paris): flipping the current month to `completed` in
// the sandbox gives exactly one execution with the right item; later polls and a restart of n8n give none;
// reopening and completing it again gives exactly one more.
const {
	pollSchedule,
	monthFromNow,
	startPublishedTrigger,
	setPayrollStatus,
	statusPollsOf,
	waitForStatusPolls,
	triggerItems,
} = require('../lib');

const SCHEDULE = pollSchedule();
// Polls that must pass without a new execution before "nothing more fired" is believed.
const QUIET_POLLS = SCHEDULE.quietPolls;
// A test waits for at most 5 polls.
jest.setTimeout(SCHEDULE.waitMs(5) + 60_000);

const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
const WORKFLOW_ID = 'wfPayrollTrigger1';
const COMPANY = 'FR1001';
// The real clock decides the window: the current month in the workflow's time zone.
const TIME_ZONE = 'Europe/Paris';
const MONTH = monthFromNow(0, TIME_ZONE);
const MONTH_NAME = new Intl.DateTimeFormat('en-US', {
	timeZone: TIME_ZONE,
	year: 'numeric',
	month: 'long',
}).format(new Date());
const END_DATE = '2026-11-27T16:00:00.000Z';

let trigger;
let instance;
let sandbox;
let api;

const setStatus = (status, executionEndDate = null) =>
	setPayrollStatus(sandbox, { companyId: COMPANY, month: MONTH, status, executionEndDate });
// One request per watched month and poll: the current month's requests count the polls.
const statusPolls = () => statusPollsOf(sandbox, COMPANY, MONTH);
const waitForPolls = (since, count) =>
	waitForStatusPolls(sandbox, {
		companyId: COMPANY,
		month: MONTH,
		since,
		count,
		schedule: SCHEDULE,
	});
const executions = () => api.executions(WORKFLOW_ID);

const waitForExecutions = (count) => api.finishedExecutions(WORKFLOW_ID, count, SCHEDULE.waitMs(2));

beforeAll(async () => {
	trigger = await startPublishedTrigger({
		prefix: 'n8n-e2e-trigger-',
		workflow: { id: WORKFLOW_ID, name: 'Payroll completed (e2e)' },
		credential: { id: 'ppTriggerToken01', name: 'Trigger token' },
		companyId: COMPANY,
		parameters: { companyId: COMPANY, months: 'both' },
		timeZone: TIME_ZONE,
		schedule: SCHEDULE,
	});
	({ instance, sandbox, api } = trigger);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await trigger?.dispose();
});

it('records the not-completed month at activation and fires nothing', async () => {
	// The activation's own poll, then scheduled ones.
	await waitForPolls(0, 1 + QUIET_POLLS);
	expect(await executions()).toEqual([]);
});

it('fires exactly once, with the month, when the payroll is completed', async () => {
	await setStatus('completed', END_DATE);
	const [execution] = await waitForExecutions(1);
	expect(triggerItems(execution)).toEqual([
		expect.objectContaining({
			companyId: COMPANY,
			month: MONTH,
			monthName: MONTH_NAME,
			status: 'completed',
			executionEndDate: END_DATE,
			timeZone: 'Europe/Paris',
		}),
	]);
	expect(execution.data.resultData.runData.Received).toHaveLength(1);

	await waitForPolls(await statusPolls(), QUIET_POLLS);
	expect(await executions()).toHaveLength(1);
});

it('fires nothing again after n8n restarts', async () => {
	await instance.stop();
	const before = await statusPolls();
	await instance.start();
	await waitForPolls(before, 1 + QUIET_POLLS);
	expect(await executions()).toHaveLength(1);
});

it('a month reopened, then completed again, fires exactly one more execution, marked as a re-run', async () => {
	await setStatus('not_completed');
	await waitForPolls(await statusPolls(), QUIET_POLLS);
	expect(await executions()).toHaveLength(1);

	await setStatus('completed', '2026-11-29T08:00:00.000Z');
	const all = await waitForExecutions(2);
	const latest = all.find(
		(execution) => triggerItems(execution)[0].executionEndDate === '2026-11-29T08:00:00.000Z',
	);
	expect(triggerItems(latest)).toEqual([
		expect.objectContaining({ month: MONTH, status: 'completed', isRerun: true }),
	]);

	await waitForPolls(await statusPolls(), QUIET_POLLS);
	expect(await executions()).toHaveLength(2);
});
