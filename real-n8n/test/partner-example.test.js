'use strict';
// The partner example (real-n8n/examples/partner-payment-files.json) end to end in a real n8n, set up as
// `npm start` does it: the example's credentials (its Partner API credential is the one the connect link fills;
// here it already holds 300 of the sandbox's 304 companies, each with a token of the partner application, as
// if each had connected through the link), the example and the connect example imported and published, the
// link registered with the sandbox (ensureConnectLink), and the sandbox's webhook endpoint at the example's
// production URL. One change: its polling trigger polls on the lab's schedule (every 10 s,
// lib/poll-schedule.js) instead of every hour. (A restart is no shortcut: n8n saves a poll's state
// only when the poll fired, so the activation's baseline would be made again after it; docs/exactly-once.md.)
//
// Three companies complete their month and one company's token is revoked, with n8n's default concurrency.
// The webhook delivers the three payroll runs at once and the next polls find the same three and the revoked
// token (one connectionLost on the connection branch). The example has no Remove Duplicates and no "once per
// month" gate: the two triggers claim each run in one place, so each run starts one execution, whichever
// trigger saw it first. Each of the three companies has exactly one stored file, its own payment file byte
// for byte; no other company has one.
//
// Then the four other companies connect through the printed link, as a new partner's clients do: one whose
// month completed before it connected (the webhook refuses its run, 409, and the sandbox's Svix retries it),
// and three whose months complete after they connected. Four stored files, each once, each its own, with no
// edit of the example.
const fs = require('node:fs');
const path = require('node:path');
const {
	finishedExecutions: finishedExecutionsOf,
	waitUntil: waitForExample,
} = require('./support/example-runs');
const {
	ALL_SCOPES,
	DEFAULT_CLIENT,
	PARTNER_CONNECT_DEMO,
	PARTNER_DEMO,
	consentThroughLink,
	createInstance,
	ensureConnectLink,
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
	partnerCredential,
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
// Not in the credential at the start: they connect through the link. The first one's month completes before.
const COMPLETED_BEFORE_CONNECT = 'FR5100';
const COMPLETED_AFTER_CONNECT = ['ES6100', 'GB7099', 'GB7100'];
const LINKED = [COMPLETED_BEFORE_CONNECT, ...COMPLETED_AFTER_CONNECT];

let instance;
let sandbox;
let rest;
let api;
let tokens;
let executionsAtStart;
let connectLink;

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
	sandbox = await startTestSandbox({ generatedCompanies: 300 });
	instance = await createInstance({ prefix: 'n8n-e2e-partner-example-' });
	const connected = sandbox.seed.companyIds.filter((companyId) => !LINKED.includes(companyId));
	const issued = sandbox.issueTokens(
		connected.map((companyId) => ({ companyId, scopes: [...ALL_SCOPES], clientId: DEFAULT_CLIENT.clientId })),
	);
	tokens = new Map(issued.map(({ companyId, access_token: token }) => [companyId, token]));
	const signingSecret = newDemoWebhookSecret();
	// The credentials the two examples name, as npm start makes them (not the 300 one-company ones), the
	// connect link's one holding the 300 companies connected so far.
	const examples = shippedExamples().filter(({ id }) => [PARTNER_DEMO.workflowId, PARTNER_CONNECT_DEMO.workflowId].includes(id));
	const named = new Set(
		examples.flatMap(({ nodes }) => nodes.flatMap((node) => Object.values(node.credentials ?? {}).map(({ id }) => id))),
	);
	const rows = connected.map((companyId) => ({ companyId, label: sandbox.seed.company(companyId).name, token: tokens.get(companyId) }));
	const credentials = exampleCredentials(sandbox, (companyId) => tokens.get(companyId), {
		webhookSigningSecret: signingSecret,
		n8nUrl: instance.url,
	})
		.filter(({ id }) => named.has(id))
		.map((credential) =>
			credential.id === PARTNER_DEMO.credential.id
				? partnerCredential({ ...PARTNER_DEMO.credential, sandbox, companies: rows, client: DEFAULT_CLIENT })
				: credential,
		);
	expect(credentials).toHaveLength(named.size);
	await instance.cli.importCredentials(credentials);
	await importExamples(instance.cli, {
		importedIdsFile: path.join(instance.userFolder, 'imported-examples.json'),
		only: [PARTNER_DEMO.workflowId, PARTNER_CONNECT_DEMO.workflowId],
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
	({ connectLink } = await ensureConnectLink({
		rest,
		n8nUrl: instance.url,
		sandbox,
		apiKeyFile: path.join(instance.userFolder, 'n8n-api-key.json'),
	}));
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

test("four clients connected through the printed link, one of them after its month completed: four stored files, once each, each the company's own", async () => {
	// Svix retries a refused delivery 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure (the
	// sandbox's default): a company connected within about 28 hours of its month's completion gets the run at
	// the next retry. The lab retries every 10 s rather than wait 5 minutes; the order of events is the same.
	await sandboxControl(sandbox, 'POST', '/webhooks/settings', { retryScheduleMs: Array(7).fill(10_000) });
	const executionsBefore = (await finishedExecutions()).length;
	const filesBefore = fs.readdirSync(filesFolder(instance.userFolder));
	await sandboxControl(sandbox, 'DELETE', '/requests');
	const attemptsFor = async (companyId) =>
		(await sandboxControl(sandbox, 'GET', '/webhooks/deliveries')).filter(
			(attempt) => attempt.body.type === 'payroll.run' && attempt.body.data.companyId === companyId,
		);

	// The month completes before the company is connected: the webhook refuses the run (409), and nothing starts.
	await setPayrollStatus(sandbox, { companyId: COMPLETED_BEFORE_CONNECT, month: MONTH, status: 'completed' });
	await waitUntil(`the webhook's answer to ${COMPLETED_BEFORE_CONNECT}'s run`, async () =>
		(await attemptsFor(COMPLETED_BEFORE_CONNECT)).some((attempt) => attempt.status !== null),
	);
	expect((await attemptsFor(COMPLETED_BEFORE_CONNECT)).map(({ status }) => status)).toEqual([409]);

	// The four administrators open the link the start printed, pick their company and accept.
	for (const companyId of LINKED) {
		const answer = await consentThroughLink(connectLink, { companyId });
		expect({ companyId, status: answer.status }).toEqual({ companyId, status: 302 });
	}
	const stored = (await instance.cli.exportCredential(PARTNER_DEMO.credential.id)).data.companies.company;
	expect(stored.map(({ companyId }) => companyId).filter((companyId) => LINKED.includes(companyId)).sort()).toEqual(
		[...LINKED].sort(),
	);
	for (const companyId of COMPLETED_AFTER_CONNECT)
		await setPayrollStatus(sandbox, { companyId, month: MONTH, status: 'completed' });

	const since = async () => (await finishedExecutions())?.slice(executionsBefore);
	await waitUntil('the four stored files', async () => {
		const executions = await since();
		return executions !== undefined && itemsOf(executions, NODES.store).length >= LINKED.length;
	});
	// Two more polls: the second starts once the first has ended, so whatever the first fired is listed.
	const seen = await statusPollsOf(sandbox, WATCHER, MONTH);
	await waitForStatusPolls(sandbox, { companyId: WATCHER, month: MONTH, since: seen, count: 2, schedule: SCHEDULE });
	await waitUntil('every execution to finish', async () => (await since()) !== undefined);
	const executions = await since();
	expect(executions.filter((execution) => execution.status !== 'success').map(({ id, status }) => ({ id, status }))).toEqual([]);

	// The refused run was retried by the sandbox and taken once the company was connected; the three others
	// were taken at their first attempt.
	const refused = await attemptsFor(COMPLETED_BEFORE_CONNECT);
	expect(refused.length).toBeGreaterThanOrEqual(2);
	expect(refused.slice(0, -1).map(({ status }) => status)).toEqual(Array(refused.length - 1).fill(409));
	expect(refused.at(-1).status).toBe(200);
	for (const companyId of COMPLETED_AFTER_CONNECT)
		expect({ companyId, statuses: (await attemptsFor(companyId)).map(({ status }) => status) }).toEqual({ companyId, statuses: [200] });

	// One execution per company, whichever trigger started it, one download with the company's new token, and
	// one stored file, its own payment file byte for byte.
	const byCompany = (companyIds) => [...companyIds].sort();
	const started = [NODES.webhook, NODES.poll]
		.flatMap((node) => itemsOf(executions, node))
		.filter((item) => item.month !== undefined)
		.map(({ companyId, month }) => ({ companyId, month }));
	expect(started.sort((a, b) => a.companyId.localeCompare(b.companyId))).toEqual(
		byCompany(LINKED).map((companyId) => ({ companyId, month: MONTH })),
	);
	expect(itemsOf(executions, NODES.connectionChanges)).toEqual([]);
	const downloads = (await listRequests(sandbox)).filter((request) => request.path.includes('/payment-file'));
	expect(byCompany(downloads.map((request) => `${request.tokenCompanyId} ${request.tokenClientId}`))).toEqual(
		byCompany(LINKED).map((companyId) => `${companyId} ${DEFAULT_CLIENT.clientId}`),
	);
	const folder = filesFolder(instance.userFolder);
	expect(fs.readdirSync(folder).filter((file) => !filesBefore.includes(file)).sort()).toEqual(
		byCompany(LINKED).map((companyId) => `payment-file-${companyId}-${MONTH}`),
	);
	for (const companyId of LINKED) {
		expect({ companyId, sha256: sha256(fs.readFileSync(path.join(folder, `payment-file-${companyId}-${MONTH}`))) }).toEqual({
			companyId,
			sha256: sha256(sandbox.seed.paymentFile(companyId, MONTH)),
		});
	}
}, 4 * 60_000);
