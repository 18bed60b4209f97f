'use strict';
// The Partner Payroll Trigger in a real n8n, as the end-to-end suites drive it: a workflow Trigger →
// Received (No Operation) polling on the shortest schedule the n8n version accepts, payroll statuses
// set in the sandbox from outside, and polls counted in the sandbox's request log (the trigger sends
// one status request per watched month and poll).
const { partnerPayrollTriggerNode } = require('./workflows');
const { listRequests, sandboxControl, startTestSandbox } = require('./sandbox');
const { pollSchedule } = require('./poll-schedule');
const { ensureN8nInstalled } = require('./install');
const { createInstance } = require('./instance');
const { accessTokenCredential, ALL_SCOPES } = require('./credentials');
const { N8nRest, N8nPublicApi } = require('./rest');

const TRIGGER_NAME = 'Partner Payroll Trigger';
const RECEIVED_NAME = 'Received';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** YYYYMM of the month `offset` months from now, in `timeZone`: what a relative selection watches. */
function monthFromNow(offset, timeZone) {
	const [year, month] = new Intl.DateTimeFormat('en-CA', {
		timeZone,
		year: 'numeric',
		month: '2-digit',
	})
		.format(new Date())
		.split('-')
		.map(Number);
	const index = year * 12 + month - 1 + offset;
	return `${Math.floor(index / 12)}${String((index % 12) + 1).padStart(2, '0')}`;
}

/**
 * The workflow `id`: the trigger (Payroll Completed with an access-token `credential` record and
 * `parameters` such as `months`) → Received. `timeZone` is the workflow's setting.
 */
function payrollTriggerWorkflow({
	id,
	name,
	credential,
	parameters,
	timeZone,
	schedule = pollSchedule(),
}) {
	return {
		id,
		name,
		active: false,
		settings: { executionOrder: 'v1', ...(timeZone ? { timezone: timeZone } : {}) },
		nodes: [
			{
				id: `${id}-trigger`,
				position: [0, 0],
				...partnerPayrollTriggerNode(TRIGGER_NAME, schedule.pollTimes, parameters, credential),
			},
			{
				id: `${id}-received`,
				name: RECEIVED_NAME,
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: { [TRIGGER_NAME]: { main: [[{ node: RECEIVED_NAME, type: 'main', index: 0 }]] } },
	};
}

/**
 * A real n8n running one published trigger workflow, as a user leaves it: a token of `companyId` with
 * every scope in an access-token credential, the workflow imported and published, then n8n started with
 * an owner signed in (`rest`) and a public API key (`api`). `beforeStart(sandbox)` sets what the
 * activation's own poll must find. Call `dispose()` in afterAll.
 */
async function startPublishedTrigger({
	prefix,
	workflow: { id, name },
	credential: credentialRecord,
	companyId,
	parameters,
	timeZone,
	schedule = pollSchedule(),
	sandboxOptions = {},
	beforeStart = async () => {},
}) {
	await ensureN8nInstalled();
	const instance = await createInstance({ prefix });
	const sandbox = await startTestSandbox(sandboxOptions);
	const dispose = async () => {
		await instance.dispose();
		await sandbox.close();
	};
	try {
		await beforeStart(sandbox);
		const { access_token: accessToken } = sandbox.issueToken({ companyId, scopes: [...ALL_SCOPES] });
		const credential = accessTokenCredential({ ...credentialRecord, sandbox, accessToken });
		await instance.cli.importCredentials([credential]);
		await instance.cli.importWorkflows([
			payrollTriggerWorkflow({ id, name, credential, parameters, timeZone, schedule }),
		]);
		await instance.cli.publishWorkflow(id);
		await instance.start();
		const rest = new N8nRest(instance.url);
		await rest.ensureOwner();
		const api = new N8nPublicApi(instance.url, await rest.createApiKey(`e2e-${id}`));
		return { instance, sandbox, rest, api, dispose };
	} catch (error) {
		await dispose();
		throw error;
	}
}

/** Sets the payroll status of a month in the sandbox, as the payroll service would change it. */
async function setPayrollStatus(sandbox, { companyId, month, status, executionEndDate = null }) {
	await sandboxControl(sandbox, 'POST', '/payroll-status', { companyId, month, status, executionEndDate });
}

/** Status requests for `month` of `companyId` so far: one per poll watching that month. */
async function statusPollsOf(sandbox, companyId, month) {
	const statusPath = `/api/v1/companies/${companyId}/payroll-status`;
	return (await listRequests(sandbox)).filter(
		(request) => request.path === statusPath && request.query?.date === month,
	).length;
}

/** Waits until `count` polls more than `since` have watched the month (at most `schedule.waitMs(count)`). */
async function waitForStatusPolls(
	sandbox,
	{ companyId, month, since, count, schedule = pollSchedule() },
) {
	const timeoutMs = schedule.waitMs(count);
	const deadline = Date.now() + timeoutMs;
	while ((await statusPollsOf(sandbox, companyId, month)) < since + count) {
		if (Date.now() > deadline)
			throw new Error(
				`the trigger did not poll ${month} ${count} more time(s) within ${timeoutMs} ms`,
			);
		await sleep(1_000);
	}
}

/** The trigger's output items of an execution (json only). */
const triggerItems = (execution, nodeName = TRIGGER_NAME) =>
	execution.data.resultData.runData[nodeName][0].data.main[0].map((item) => item.json);

/**
 * What the editor does: it saves the workflow (PATCH, without static data, with the version and
 * checksum it loaded), then publishes the saved version. `edit(loaded)` returns the new
 * `{ nodes, connections }`.
 */
async function editAndPublish(rest, workflowId, edit) {
	const loaded = await rest.request('GET', `/rest/workflows/${workflowId}`);
	const { nodes, connections } = edit(loaded);
	const saved = await rest.request('PATCH', `/rest/workflows/${workflowId}`, {
		id: workflowId,
		name: loaded.name,
		nodes,
		pinData: loaded.pinData ?? {},
		connections,
		active: loaded.active,
		settings: loaded.settings,
		tags: [],
		versionId: loaded.versionId,
		meta: loaded.meta,
		expectedChecksum: loaded.checksum,
		autosaved: false,
	});
	await rest.request('POST', `/rest/workflows/${workflowId}/activate`, {
		versionId: saved.versionId,
		expectedChecksum: saved.checksum,
	});
}

/** The trigger's stored state (by event), as n8n's database holds it: under the node's id. */
async function storedTriggerState(rest, workflowId) {
	const workflow = await rest.request('GET', `/rest/workflows/${workflowId}`);
	return workflow.staticData?.global?.[`partnerPayrollTrigger:${workflowId}-trigger`];
}

module.exports = {
	TRIGGER_NAME,
	monthFromNow,
	payrollTriggerWorkflow,
	startPublishedTrigger,
	setPayrollStatus,
	statusPollsOf,
	waitForStatusPolls,
	triggerItems,
	editAndPublish,
	storedTriggerState,
};
