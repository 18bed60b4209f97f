'use strict';
// The Partner Payroll Trigger over every company of a Partner API credential, inside a real n8n: 300
// companies of the sandbox in one credential, one published workflow (the trigger, Payroll Completed, all
// companies → Partner Payroll → Download Payment File of the item's company and month). The activation's
// poll records what is already completed; a month completed for three companies gives one execution with
// one item per company and each company's own file; a revoked token gives one connectionLost, once.
const fs = require('node:fs');
const path = require('node:path');
const {
	ALL_SCOPES,
	artifactsDir,
	DEFAULT_CLIENT,
	binaryBytes,
	createInstance,
	ensureN8nInstalled,
	monthFromNow,
	N8nPublicApi,
	N8nRest,
	nodeItems,
	partnerCredential,
	partnerPayrollNode,
	partnerPayrollTriggerNode,
	pollSchedule,
	sandboxControl,
	setPayrollStatus,
	sha256,
	startTestSandbox,
	statusPollsOf,
	triggerItems,
	waitForStatusPolls,
} = require('../lib');

const SCHEDULE = pollSchedule();
jest.setTimeout(SCHEDULE.waitMs(5) + 60_000);
const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing

const TIME_ZONE = 'Europe/Paris';
const MONTH = monthFromNow(0, TIME_ZONE);
const WORKFLOW_ID = 'wfPartnerTrigger01';
const CREDENTIAL = { id: 'ppPartnerTrig001', name: 'Partner API (trigger e2e)', type: 'partnerPayrollPartnerApi' };
const COMPLETED = ['FR1002', 'ES6050', 'GB7090'];
const REVOKED = 'FR5010';
const WATCHER = 'ES2001'; // a company whose status requests count the polls
const END_DATE = '2026-11-27T16:00:00.000Z';

let instance;
let sandbox;
let api;
let companyIds;

function partnerTriggerWorkflow() {
	const trigger = {
		id: `${WORKFLOW_ID}-trigger`,
		position: [0, 0],
		...partnerPayrollTriggerNode(
			'Partner Payroll Trigger',
			SCHEDULE.pollTimes,
			{ companies: 'all', months: 'current' },
			CREDENTIAL,
		),
	};
	const download = {
		id: `${WORKFLOW_ID}-download`,
		position: [220, 0],
		// A connection change has no month: its item fails here and goes on, the others download.
		onError: 'continueRegularOutput',
		...partnerPayrollNode(
			'Payment file',
			{
				resource: 'payroll',
				operation: 'downloadPaymentFile',
				companyId: '={{ $json.companyId }}',
				month: '={{ $json.month }}',
			},
			CREDENTIAL,
		),
	};
	return {
		id: WORKFLOW_ID,
		name: 'Partner trigger (e2e)',
		active: false,
		settings: { executionOrder: 'v1', timezone: TIME_ZONE },
		nodes: [trigger, download],
		connections: { [trigger.name]: { main: [[{ node: download.name, type: 'main', index: 0 }]] } },
	};
}

/** Waits for `count` more polls (counted on WATCHER's status requests) after `since`. */
async function waitForPolls(since, count) {
	await waitForStatusPolls(sandbox, { companyId: WATCHER, month: MONTH, since, count, schedule: SCHEDULE });
}

beforeAll(async () => {
	await ensureN8nInstalled();
	instance = await createInstance({ prefix: 'n8n-e2e-trigger-partner-' });
	sandbox = await startTestSandbox({ generatedCompanies: 296 });
	const { companies } = await sandboxControl(sandbox, 'GET', '/seed');
	companyIds = companies.map((company) => company.id);
	const issued = sandbox.issueTokens(companyIds.map((companyId) => ({ companyId, scopes: [...ALL_SCOPES] })));
	await instance.cli.importCredentials([
		partnerCredential({
			...CREDENTIAL,
			sandbox,
			client: DEFAULT_CLIENT,
			companies: issued.map(({ companyId, access_token: token }) => ({ companyId, label: `Client ${companyId}`, token })),
		}),
	]);
	await instance.cli.importWorkflows([partnerTriggerWorkflow()]);
	await instance.cli.publishWorkflow(WORKFLOW_ID);
	await instance.start();
	const rest = new N8nRest(instance.url);
	await rest.ensureOwner();
	api = new N8nPublicApi(instance.url, await rest.createApiKey(`e2e-${WORKFLOW_ID}`));
	// The activation's poll: the baseline of all 300 companies, nothing fired.
	await waitForPolls(0, 1);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.close();
});

/** The status requests so far, and the companies they asked about. */
async function statusRequests() {
	const requests = (await sandboxControl(sandbox, 'GET', '/requests')).filter((request) =>
		request.path.endsWith('/payroll-status'),
	);
	return { requests, companies: new Set(requests.map((request) => request.path.split('/')[4])) };
}

test('the activation polls all 300 companies, each request with its own token, and fires nothing', async () => {
	// The poll that started counting may still be on its way through the list.
	const deadline = Date.now() + SCHEDULE.waitMs(1);
	while ((await statusRequests()).companies.size < companyIds.length && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	const { requests, companies } = await statusRequests();
	expect(companies.size).toBe(300);
	// What one poll over 300 companies costs inside this n8n (not a claim: BENCHMARKS.md holds those).
	const times = requests.map((request) => Date.parse(request.time));
	fs.mkdirSync(artifactsDir, { recursive: true });
	fs.writeFileSync(
		path.join(artifactsDir, `partner-trigger-300-${instance.runtime.n8nVersion}.txt`),
		`The activation poll sent ${requests.length} status requests in ${Math.max(...times) - Math.min(...times)} ms\n`,
	);
	for (const request of requests) expect(request.path).toContain(`/companies/${request.tokenCompanyId}/`);
	expect(await api.executions(WORKFLOW_ID, { includeData: false })).toEqual([]);
});

/** Every item the trigger emitted in executions started after `since` (ms), oldest execution first. */
async function itemsSince(since) {
	const executions = (await api.executions(WORKFLOW_ID))
		.filter((execution) => Date.parse(execution.startedAt) >= since)
		.reverse();
	return executions.flatMap((execution) =>
		triggerItems(execution).map((item, index) => ({ item, file: nodeItems(execution, 'Payment file')[index] })),
	);
}

// A poll that runs out of its 30 s before the end of the list goes on at the next poll with the
// companies it did not reach: the three completions may come in one execution or in several.
test("a month completed for three companies: one item per company, each with that company's payment file", async () => {
	const started = Date.now();
	const since = await statusPollsOf(sandbox, WATCHER, MONTH);
	for (const companyId of COMPLETED) {
		await setPayrollStatus(sandbox, { companyId, month: MONTH, status: 'completed', executionEndDate: END_DATE });
	}
	await waitForPolls(since, 2);
	const deadline = Date.now() + SCHEDULE.waitMs(2);
	while ((await itemsSince(started)).length < COMPLETED.length && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 2_000));
	}
	const fired = await itemsSince(started);
	expect(fired.map(({ item: { companyId, label, month, status } }) => ({ companyId, label, month, status })).sort((a, b) => a.companyId.localeCompare(b.companyId))).toEqual(
		[...COMPLETED].sort().map((companyId) => ({ companyId, label: `Client ${companyId}`, month: MONTH, status: 'completed' })),
	);
	for (const { item, file } of fired) {
		const [binary] = Object.values(file.binary);
		expect(binary.fileName).toBe(`payment-file-${item.companyId}-${MONTH}`);
		expect(sha256(binaryBytes(instance.userFolder, binary))).toBe(sha256(sandbox.seed.paymentFile(item.companyId, MONTH)));
	}
});

test('a revoked token among 300: one connectionLost for that company over several polls, nothing else', async () => {
	const started = Date.now();
	await sandboxControl(sandbox, 'POST', '/tokens/revoke', { companyId: REVOKED });
	const since = await statusPollsOf(sandbox, WATCHER, MONTH);
	await waitForPolls(since, 1 + SCHEDULE.quietPolls + 1);
	const fired = (await itemsSince(started)).map(({ item }) => item);
	expect(fired).toEqual([
		expect.objectContaining({ event: 'connectionLost', companyId: REVOKED, label: `Client ${REVOKED}` }),
	]);
	expect(JSON.stringify(fired)).not.toMatch(/sbx_|Bearer/);
});
