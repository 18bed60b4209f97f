'use strict';
// The partner example (real-n8n/examples/partner-payment-files.json) end to end in a real n8n, set up as
// `npm start` does it: the example's credentials (its Partner API credential here holding the sandbox's 300
// companies, each with its company API key), the example imported and published, and the sandbox's webhook
// endpoint at its production URL. One change: its polling trigger polls on the lab's schedule (every 10 s,
// lib/poll-schedule.js) instead of every hour. (A restart is no shortcut: n8n saves a poll's state
// only when the poll fired, so the activation's baseline would be made again after it; docs/exactly-once.md.)
//
// Three companies complete their month and one company's token is revoked, with n8n's default concurrency.
// The webhook delivers the three payroll runs at once and the next polls find the same three and the revoked
// token (one connectionLost on the connection branch). The example has no Remove Duplicates and no "once per
// month" gate: the two triggers claim each run in one place, so each run starts one execution, whichever
// trigger saw it first. Each of the three companies has exactly one stored file, its own payment file byte
// for byte; no other company has one.
const fs = require('node:fs');
const path = require('node:path');
const {
	finishedExecutions: finishedExecutionsOf,
	waitUntil: waitForExample,
} = require('./support/example-runs');
const {
	ALL_SCOPES,
	PARTNER_DEMO,
	createInstance,
	ensureDemoEndpoint,
	ensureN8nInstalled,
	exampleCredentials,
	filesFolder,
	importExamples,
	listRequests,
	monthFromNow,
	N8nPublicApi,
	N8nRest,
	newDemoWebhookSecret,
	nodeItems,
	partnerDemoWebhookUrl,
	pollSchedule,
	sandboxControl,
	setPayrollStatus,
	sha256,
	shippedExamples,
	startTestSandbox,
	statusPollsOf,
	waitForStatusPolls,
} = require('../lib');

const SCHEDULE = pollSchedule();
// The poll that finds the changes, then two more (the second starts once the first has ended).
jest.setTimeout(SCHEDULE.waitMs(1) + SCHEDULE.waitMs(2) + 60_000);
const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
const WAIT_MS = SCHEDULE.waitMs(1);

const EXAMPLE = shippedExamples().find(({ id }) => id === PARTNER_DEMO.workflowId);
const nodeNamed = (type) => EXAMPLE.nodes.find((node) => node.type.endsWith(type)).name;
const NODES = {
	webhook: nodeNamed('.partnerPayrollWebhookTrigger'),
	poll: nodeNamed('.partnerPayrollTrigger'),
	store: nodeNamed('.readWriteFile'),
	connectionChanges: 'Connection changes (to do)',
};
// The example sets no time zone: n8n's own, UTC in the lab (lib/env.js).
const MONTH = monthFromNow(0, 'UTC');
const COMPLETED = ['FR1002', 'ES6050', 'GB7090'];
const REVOKED = 'FR5010';
const WATCHER = 'ES2001'; // a company whose status requests count the polls

let instance;
let sandbox;
let rest;
let api;
let tokens;
let executionsAtStart;

/** Resolves once `check()` is true; fails naming `what` after WAIT_MS. */
const waitUntil = (what, check) => waitForExample(what, check, WAIT_MS);

/** The example's executions (oldest first), once every one of them has finished. */
const finishedExecutions = () => finishedExecutionsOf(api, PARTNER_DEMO.workflowId);

/** The items `nodeName` output over every finished execution (json only). */
const itemsOf = (executions, nodeName) =>
	executions.flatMap((execution) => nodeItems(execution, nodeName)).map((item) => item.json);

/** The companies whose status of MONTH the polls asked so far. */
async function companiesAsked() {
	const asked = (await listRequests(sandbox)).filter(
		(request) => request.path.endsWith('/payroll-status') && request.query?.date === MONTH,
	);
	return new Set(asked.map((request) => request.path.split('/')[4])).size;
}

beforeAll(async () => {
	await ensureN8nInstalled();
	sandbox = await startTestSandbox({ generatedCompanies: 296 });
	instance = await createInstance({ prefix: 'n8n-e2e-partner-example-' });
	const issued = sandbox.issueTokens(
		sandbox.seed.companyIds.map((companyId) => ({
			companyId,
			scopes: [...ALL_SCOPES],
			kind: 'apiKey',
		})),
	);
	tokens = new Map(issued.map(({ companyId, access_token: token }) => [companyId, token]));
	const signingSecret = newDemoWebhookSecret();
	// The credentials the example names, as npm start makes them (not the 300 one-company ones).
	const named = new Set(
		EXAMPLE.nodes.flatMap((node) => Object.values(node.credentials ?? {}).map(({ id }) => id)),
	);
	const credentials = exampleCredentials(sandbox, (companyId) => tokens.get(companyId), {
		webhookSigningSecret: signingSecret,
		n8nUrl: instance.url,
	}).filter(({ id }) => named.has(id));
	expect(credentials).toHaveLength(named.size);
	await instance.cli.importCredentials(credentials);
	await importExamples(instance.cli, {
		importedIdsFile: path.join(instance.userFolder, 'imported-examples.json'),
		only: [PARTNER_DEMO.workflowId],
		pollTimes: SCHEDULE.pollTimes,
	});
	await ensureDemoEndpoint(sandbox, {
		url: partnerDemoWebhookUrl(instance.url),
		secret: signingSecret,
	});
	await instance.start();
	rest = new N8nRest(instance.url);
	await rest.ensureOwner();
	api = new N8nPublicApi(instance.url, await rest.createApiKey('e2e-partner-example'));
	// The activation's poll: the baseline of all 300 companies (their completed months recorded).
	await waitUntil(
		'the activation poll to ask about all 300 companies',
		async () => (await companiesAsked()) === 300,
	);
	executionsAtStart = await finishedExecutions();
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.close();
});

test('the example, published as npm start leaves it, polls all 300 companies at activation and fires nothing', () => {
	expect(executionsAtStart).toEqual([]);
});

test("three months completed, each seen by the webhook and by the polls: one execution and one stored file per company, that company's payment file", async () => {
	await sandboxControl(sandbox, 'DELETE', '/requests');
	const completedAt = Date.now();
	for (const companyId of COMPLETED)
		await setPayrollStatus(sandbox, { companyId, month: MONTH, status: 'completed' });
	await sandboxControl(sandbox, 'POST', '/tokens/revoke', { token: tokens.get(REVOKED) });

	// The webhook delivers the three runs at once; a poll finds them again, and the revoked token. At least:
	// a run stored twice must reach the assertions below, which name it.
	await waitUntil("the three stored files, and the poll's connectionLost", async () => {
		const executions = await finishedExecutions();
		return (
			executions !== undefined &&
			itemsOf(executions, NODES.store).length >= COMPLETED.length &&
			itemsOf(executions, NODES.connectionChanges).length >= 1
		);
	});
	// Two more polls: the second starts once the first has ended, so whatever the first fired is listed.
	const seen = await statusPollsOf(sandbox, WATCHER, MONTH);
	await waitForStatusPolls(sandbox, {
		companyId: WATCHER,
		month: MONTH,
		since: seen,
		count: 2,
		schedule: SCHEDULE,
	});
	await waitUntil(
		'every execution to finish',
		async () => (await finishedExecutions()) !== undefined,
	);
	const executions = await finishedExecutions();
	expect(
		executions
			.filter((execution) => execution.status !== 'success')
			.map(({ id, status }) => ({ id, status })),
	).toEqual([]);

	// Both triggers saw every run: the webhook took each company's delivery (2xx at the first attempt,
	// never retried), and the polls read each company's month completed, at least twice after it completed.
	const byCompany = (companyIds) => [...companyIds].sort();
	const deliveries = (await sandboxControl(sandbox, 'GET', '/webhooks/messages')).filter(
		(message) => message.type === 'payroll.run',
	);
	expect(byCompany(deliveries.map((message) => message.body.data.companyId))).toEqual(
		byCompany(COMPLETED),
	);
	for (const message of deliveries)
		expect(message.deliveries).toEqual([
			expect.objectContaining({ state: 'delivered', attempts: 1 }),
		]);
	const requests = await listRequests(sandbox);
	for (const companyId of COMPLETED) {
		const polls = requests.filter(
			(request) =>
				request.path === `/api/v1/companies/${companyId}/payroll-status` &&
				request.query?.date === MONTH &&
				request.status === 200 &&
				Date.parse(request.time) > completedAt,
		);
		expect({ companyId, polls: polls.length >= 2 }).toEqual({ companyId, polls: true });
	}

	// The two triggers started each run once between them: one execution per company, whichever came first.
	const runsBy = (source) =>
		itemsOf(executions, NODES[source])
			.filter((item) => item.month !== undefined)
			.map(({ companyId, month, dedupeKey }) => ({ companyId, month, dedupeKey }));
	const started = [...runsBy('webhook'), ...runsBy('poll')].sort((a, b) =>
		a.companyId.localeCompare(b.companyId),
	);
	expect(started).toEqual(
		byCompany(COMPLETED).map((companyId) => ({
			companyId,
			month: MONTH,
			dedupeKey: `payroll:${companyId}:${MONTH}`,
		})),
	);

	// One download and one stored file per company, its own.
	expect(byCompany(itemsOf(executions, NODES.store).map(({ companyId }) => companyId))).toEqual(
		byCompany(COMPLETED),
	);
	const downloads = requests.filter((request) => request.path.includes('/payment-file'));
	expect(byCompany(downloads.map((request) => request.tokenCompanyId))).toEqual(
		byCompany(COMPLETED),
	);
	for (const request of downloads)
		expect(request.path).toContain(`/companies/${request.tokenCompanyId}/`);
	const folder = filesFolder(instance.userFolder);
	expect(fs.readdirSync(folder).sort()).toEqual(
		byCompany(COMPLETED).map((companyId) => `payment-file-${companyId}-${MONTH}`),
	);
	for (const companyId of COMPLETED) {
		expect(sha256(fs.readFileSync(path.join(folder, `payment-file-${companyId}-${MONTH}`)))).toBe(
			sha256(sandbox.seed.paymentFile(companyId, MONTH)),
		);
	}
});

test("the revoked token among 300: one connectionLost on the example's connection branch, and no token in any execution", async () => {
	const executions = await finishedExecutions();
	expect(itemsOf(executions, NODES.connectionChanges)).toEqual([
		expect.objectContaining({
			event: 'connectionLost',
			companyId: REVOKED,
			label: sandbox.seed.company(REVOKED).name,
		}),
	]);
	const recorded = JSON.stringify(executions);
	expect(recorded).not.toMatch(/sbx_|Bearer/);
	for (const companyId of [...COMPLETED, REVOKED])
		expect(recorded).not.toContain(tokens.get(companyId));
});
