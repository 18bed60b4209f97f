'use strict';
// The trigger's edges inside a real n8n (`n8n start`, published workflow), on relative windows computed
// from the real clock (Europe/Paris): the workflow edited the way the editor edits it (saved without
// static data, Months changed) and published again keeps what it knows and fires nothing new, even
// for a month that fired and re-enters the selection; a month reopened then completed fires exactly
// one more execution.
const lib = require('../../e2e/lib');

const {
	ensureN8nInstalled,
	createInstance,
	N8nRest,
	startTestSandbox,
	listRequests,
	accessTokenCredential,
	ALL_SCOPES,
	packageName,
} = lib;

// The poll schedule in one place: the matrix's helper when e2e/lib has one (every 10 s in n8n 2.8.4,
// every minute after 2.9, which refuses shorter ones), else 2.8.4's 10-second cron.
const SCHEDULE = lib.pollSchedule
	? lib.pollSchedule()
	: {
			pollTimes: { item: [{ mode: 'custom', cronExpression: '0,10,20,30,40,50 * * * * *' }] },
			quietPolls: 2,
			waitMs: (polls = 1) => polls * 10_000 + 30_000,
		};

jest.setTimeout(SCHEDULE.waitMs(12) + 60_000);

const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
const WORKFLOW_ID = 'wfTriggerEdges01';
const TRIGGER_NAME = 'Partner Payroll Trigger';
const COMPANY = 'FR1001';
const TIME_ZONE = 'Europe/Paris';
const STATUS_PATH = `/api/v1/companies/${COMPANY}/payroll-status`;

/** YYYYMM of the month `offset` months from now, in the workflow's time zone. */
function monthFromNow(offset) {
	const [year, month] = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit' })
		.format(new Date())
		.split('-')
		.map(Number);
	const index = year * 12 + month - 1 + offset;
	return `${Math.floor(index / 12)}${String((index % 12) + 1).padStart(2, '0')}`;
}

const CURRENT = monthFromNow(0);
const PREVIOUS = monthFromNow(-1);

let instance;
let sandbox;
let rest;
let apiKey;

function triggerWorkflow(credential) {
	return {
		id: WORKFLOW_ID,
		name: 'Payroll completed, edited (e2e)',
		active: false,
		settings: { executionOrder: 'v1', timezone: TIME_ZONE },
		nodes: [
			{
				id: 'edges-trigger-node',
				name: TRIGGER_NAME,
				type: `${packageName}.partnerPayrollTrigger`,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: SCHEDULE.pollTimes,
					authentication: 'accessToken',
					event: 'payrollCompleted',
					companyId: COMPANY,
					months: 'previous',
					options: { fireForAlreadyCompleted: true },
				},
				credentials: { partnerPayrollApi: { id: credential.id, name: credential.name } },
			},
			{
				id: 'edges-noop-node',
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

async function setStatus(month, status, executionEndDate = null) {
	const response = await fetch(`${sandbox.url}/_sandbox/payroll-status`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ companyId: COMPANY, month, status, executionEndDate }),
	});
	if (!response.ok) throw new Error(`sandbox payroll-status answered ${response.status}`);
}

/** Payroll-status requests for `month` so far: one per poll that watches it. */
async function pollsOf(month) {
	return (await listRequests(sandbox)).filter(
		(request) => request.path === STATUS_PATH && request.query?.date === month,
	).length;
}

async function waitForPollsOf(month, since, count) {
	const timeoutMs = SCHEDULE.waitMs(count);
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if ((await pollsOf(month)) >= since + count) return;
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
	throw new Error(`the trigger did not poll ${month} ${count} more times within ${timeoutMs} ms`);
}

/** Quiet polls watching `month`: enough for a wrong execution to show up. */
async function quietPollsOf(month) {
	await waitForPollsOf(month, await pollsOf(month), SCHEDULE.quietPolls);
}

/** The trigger's items of every execution, oldest execution first. */
async function firedItems() {
	const response = await fetch(
		`${instance.url}/api/v1/executions?workflowId=${WORKFLOW_ID}&includeData=true&limit=100`,
		{ headers: { 'X-N8N-API-KEY': apiKey } },
	);
	if (!response.ok) throw new Error(`executions answered ${response.status}`);
	const { data } = await response.json();
	return data
		.sort((a, b) => Number(a.id) - Number(b.id))
		.map((execution) => execution.data.resultData.runData[TRIGGER_NAME][0].data.main[0].map((item) => item.json));
}

async function waitForExecutions(count) {
	const timeoutMs = SCHEDULE.waitMs(2);
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const items = await firedItems();
		if (items.length >= count) return items;
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
	throw new Error(`expected ${count} execution(s) within ${timeoutMs} ms`);
}

/** The trigger's stored state of the company, as n8n's database holds it. */
async function storedCompanyState() {
	const workflow = await rest.request('GET', `/rest/workflows/${WORKFLOW_ID}`);
	return workflow.staticData?.[`node:${TRIGGER_NAME}`]?.payrollCompleted?.companies?.[COMPANY];
}

/**
 * What the editor does: it saves the workflow (PATCH, without static data, with the version and
 * checksum it loaded), then publishes the saved version.
 */
async function editAndPublish(changeParameters) {
	const loaded = await rest.request('GET', `/rest/workflows/${WORKFLOW_ID}`);
	const nodes = loaded.nodes.map((node) =>
		node.name === TRIGGER_NAME ? { ...node, parameters: changeParameters(node.parameters) } : node,
	);
	const saved = await rest.request('PATCH', `/rest/workflows/${WORKFLOW_ID}`, {
		id: WORKFLOW_ID,
		name: loaded.name,
		nodes,
		pinData: loaded.pinData ?? {},
		connections: loaded.connections,
		active: loaded.active,
		settings: loaded.settings,
		tags: [],
		versionId: loaded.versionId,
		meta: loaded.meta,
		expectedChecksum: loaded.checksum,
		autosaved: false,
	});
	await rest.request('POST', `/rest/workflows/${WORKFLOW_ID}/activate`, {
		versionId: saved.versionId,
		expectedChecksum: saved.checksum,
	});
}

beforeAll(async () => {
	await ensureN8nInstalled();
	instance = await createInstance({ prefix: 'n8n-e2e-trigger-edges-' });
	sandbox = await startTestSandbox();
	await setStatus(PREVIOUS, 'completed', '2026-01-28T17:00:00.000Z');
	await setStatus(CURRENT, 'not_completed');
	const { access_token: accessToken } = sandbox.issueToken({ companyId: COMPANY, scopes: [...ALL_SCOPES] });
	const credential = accessTokenCredential({ id: 'ppEdgesToken001', name: 'Edges token', sandbox, accessToken });
	await instance.cli.importCredentials([credential]);
	await instance.cli.importWorkflows([triggerWorkflow(credential)]);
	await instance.cli.publishWorkflow(WORKFLOW_ID);
	await instance.start();
	rest = new N8nRest(instance.url);
	await rest.ensureOwner();
	const scopes = await rest.request('GET', '/rest/api-keys/scopes');
	apiKey = (await rest.request('POST', '/rest/api-keys', { label: 'e2e-trigger-edges', scopes, expiresAt: null }))
		.rawApiKey;
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.close();
});

it('Previous Month with Fire for Months Already Completed When Watching Starts: the completed month fires once', async () => {
	const [items] = await waitForExecutions(1);
	expect(items).toEqual([expect.objectContaining({ month: PREVIOUS, status: 'completed', isRerun: false })]);
	await quietPollsOf(PREVIOUS);
	expect(await firedItems()).toHaveLength(1);
	expect(await storedCompanyState()).toMatchObject({ fired: [PREVIOUS], selection: 'previous' });
});

it('edited to Current Month, then widened to Current and Previous Month, each published again: state kept, nothing new fires', async () => {
	await editAndPublish((parameters) => ({ ...parameters, months: 'current' }));
	await quietPollsOf(CURRENT);
	expect(await firedItems()).toHaveLength(1);
	// The edit kept what is known: the month that fired is remembered, though no longer watched.
	expect(await storedCompanyState()).toMatchObject({ fired: [PREVIOUS], selection: 'current' });

	// The month that fired re-enters the selection, already completed, with the option still on.
	const previousPolls = await pollsOf(PREVIOUS);
	await editAndPublish((parameters) => ({ ...parameters, months: 'both' }));
	await waitForPollsOf(PREVIOUS, previousPolls, 1 + SCHEDULE.quietPolls);
	expect(await firedItems()).toHaveLength(1);
	expect(await storedCompanyState()).toMatchObject({ fired: [PREVIOUS], selection: 'both' });
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
