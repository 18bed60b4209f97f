'use strict';
// The trigger inside a real n8n (`n8n start`, workflow published, the shortest poll schedule the n8n version
// accepts: every 10 s in 2.8.4, every minute in newer versions), watching a
// relative window (Current and Previous Month, Europe/Paris): flipping the current month to `completed` in
// the sandbox gives exactly one execution with the right item; later polls and a restart of n8n give none;
// reopening and completing it again gives exactly one more.
const {
	ensureN8nInstalled,
	createInstance,
	N8nRest,
	startTestSandbox,
	listRequests,
	accessTokenCredential,
	ALL_SCOPES,
	packageName,
	pollSchedule,
} = require('../../e2e/lib');

const SCHEDULE = pollSchedule();
// Polls that must pass without a new execution before "nothing more fired" is believed.
const QUIET_POLLS = SCHEDULE.quietPolls;
// A test waits for at most 5 polls.
jest.setTimeout(SCHEDULE.waitMs(5) + 60_000);

const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
const WORKFLOW_ID = 'wfPayrollTrigger1';
const TRIGGER_NAME = 'Partner Payroll Trigger';
const COMPANY = 'FR1001';
// The real clock decides the window: the current month in the workflow's time zone.
const TIME_ZONE = 'Europe/Paris';
const MONTH = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit' })
	.format(new Date())
	.replace('-', '');
const MONTH_NAME = new Intl.DateTimeFormat('en-US', { timeZone: TIME_ZONE, year: 'numeric', month: 'long' }).format(
	new Date(),
);
const STATUS_PATH = `/api/v1/companies/${COMPANY}/payroll-status`;
const END_DATE = '2026-11-27T16:00:00.000Z';

let instance;
let sandbox;
let apiKey;

function triggerWorkflow(credential) {
	return {
		id: WORKFLOW_ID,
		name: 'Payroll completed (e2e)',
		active: false,
		settings: { executionOrder: 'v1', timezone: TIME_ZONE },
		nodes: [
			{
				id: 'trigger-node',
				name: TRIGGER_NAME,
				type: `${packageName}.partnerPayrollTrigger`,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: SCHEDULE.pollTimes,
					authentication: 'accessToken',
					event: 'payrollCompleted',
					companyId: COMPANY,
					months: 'both',
					options: {},
				},
				credentials: { partnerPayrollApi: { id: credential.id, name: credential.name } },
			},
			{
				id: 'noop-node',
				name: 'Received',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: { [TRIGGER_NAME]: { main: [[{ node: 'Received', type: 'main', index: 0 }]] } },
	};
}

async function statusPolls() {
	// One request per watched month and poll: the current month's requests count the polls.
	return (await listRequests(sandbox)).filter(
		(request) => request.path === STATUS_PATH && request.query?.date === MONTH,
	).length;
}

/** Waits until the trigger has polled `count` more times than `since`. */
async function waitForPolls(since, count, timeoutMs = SCHEDULE.waitMs(count)) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if ((await statusPolls()) >= since + count) return;
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
	throw new Error(`the trigger did not poll ${count} more times within ${timeoutMs} ms`);
}

async function executions() {
	const response = await fetch(
		`${instance.url}/api/v1/executions?workflowId=${WORKFLOW_ID}&includeData=true&limit=50`,
		{ headers: { 'X-N8N-API-KEY': apiKey } },
	);
	if (!response.ok) throw new Error(`executions answered ${response.status}`);
	return (await response.json()).data;
}

async function waitForExecutions(count, timeoutMs = SCHEDULE.waitMs(2)) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const found = await executions();
		if (found.length >= count && found.every((execution) => execution.finished || execution.stoppedAt)) return found;
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
	throw new Error(`expected ${count} execution(s) within ${timeoutMs} ms`);
}

async function startWithApiKey() {
	await instance.start();
	const rest = new N8nRest(instance.url);
	await rest.ensureOwner();
	if (!apiKey) {
		const scopes = await rest.request('GET', '/rest/api-keys/scopes');
		const created = await rest.request('POST', '/rest/api-keys', { label: 'e2e-trigger', scopes, expiresAt: null });
		apiKey = created.rawApiKey;
	}
}

beforeAll(async () => {
	await ensureN8nInstalled();
	instance = await createInstance({ prefix: 'n8n-e2e-trigger-' });
	sandbox = await startTestSandbox();
	const { access_token: accessToken } = sandbox.issueToken({ companyId: COMPANY, scopes: [...ALL_SCOPES] });
	const credential = accessTokenCredential({ id: 'ppTriggerToken01', name: 'Trigger token', sandbox, accessToken });
	await instance.cli.importCredentials([credential]);
	await instance.cli.importWorkflows([triggerWorkflow(credential)]);
	await instance.cli.publishWorkflow(WORKFLOW_ID);
	await startWithApiKey();
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.close();
});

it('records the not-completed month at activation and fires nothing', async () => {
	// The activation's own poll, then scheduled ones.
	await waitForPolls(0, 1 + QUIET_POLLS);
	expect(await executions()).toEqual([]);
});

it('fires exactly once, with the month, when the payroll is completed', async () => {
	await fetch(`${sandbox.url}/_sandbox/payroll-status`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ companyId: COMPANY, month: MONTH, status: 'completed', executionEndDate: END_DATE }),
	});
	const [execution] = await waitForExecutions(1);
	const [run] = execution.data.resultData.runData[TRIGGER_NAME];
	expect(run.data.main[0].map((item) => item.json)).toEqual([
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
	await startWithApiKey();
	await waitForPolls(before, 1 + QUIET_POLLS);
	expect(await executions()).toHaveLength(1);
});

it('a month reopened, then completed again, fires exactly one more execution, marked as a re-run', async () => {
	const setStatus = async (status, executionEndDate) =>
		await fetch(`${sandbox.url}/_sandbox/payroll-status`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ companyId: COMPANY, month: MONTH, status, executionEndDate }),
		});
	await setStatus('not_completed', null);
	await waitForPolls(await statusPolls(), QUIET_POLLS);
	expect(await executions()).toHaveLength(1);

	await setStatus('completed', '2026-11-29T08:00:00.000Z');
	const all = await waitForExecutions(2);
	const latest = all.find((execution) => execution.data.resultData.runData[TRIGGER_NAME][0].data.main[0][0].json.executionEndDate === '2026-11-29T08:00:00.000Z');
	expect(latest.data.resultData.runData[TRIGGER_NAME][0].data.main[0].map((item) => item.json)).toEqual([
		expect.objectContaining({ month: MONTH, status: 'completed', isRerun: true }),
	]);

	await waitForPolls(await statusPolls(), QUIET_POLLS);
	expect(await executions()).toHaveLength(2);
});
