'use strict';
// A partner's month-end in a real n8n (issue 37), shared by the regular-mode suite (both n8n rows) and the
// queue-mode one: one workflow with both Partner Payroll triggers, the webhook and the poll, each connected
// straight to Download Payment File and then to a node that stores the file, on one Partner API credential
// of 300 companies, with n8n's default concurrency. A month-end completes the month of 100 of them within
// the same second; the sandbox's Svix delivers each event to two endpoints at the workflow's one production
// URL (a copy of every delivery, same message id, at the same moment), and the poll finds the same runs
// again. The stored file's name carries the execution's id, so a run started twice leaves two files
// instead of overwriting one.
const fs = require('node:fs');
const path = require('node:path');
const {
	ALL_SCOPES,
	listRequests,
	newSigningSecret,
	packageName,
	partnerCredential,
	productionPath,
	registerEndpoint,
	sandboxControl,
	sha256,
	statusPollsOf,
	waitForStatusPolls,
	webhookSecretCredential,
} = require('../../lib');
const { waitUntil } = require('./example-runs');

const MONTH_END = Object.freeze({
	workflowId: 'wfPartnerMonthEnd1',
	webhookId: 'e2e-partner-month-end',
	webhookCredential: Object.freeze({ id: 'ppMonthEndSecret1', name: 'Webhook signing secret (month-end)' }),
	partnerCredential: Object.freeze({ id: 'ppMonthEndPartner', name: 'Partner API, 300 companies (month-end)' }),
	// A month the sandbox has completed for no company: each month-end completes it for 100 of them.
	month: '202701',
	// Generated next to the sandbox's 4 seeded companies: 300 in the credential.
	generatedCompanies: 296,
	// The month-end in the middle of which n8n (in queue mode, its main) is restarted.
	restartedRun: 2,
	// n8n lets running work finish when it is stopped (up to N8N_GRACEFUL_SHUTDOWN_TIMEOUT, 30 s): the
	// restart waits for that, as an operator's restart does, instead of killing n8n after the default grace.
	restartGraceMs: 40_000,
	runs: 3,
});
const NODES = Object.freeze({
	webhook: 'Payroll runs (webhook)',
	poll: 'Payroll completed (poll)',
	download: 'Download the payment file',
	store: 'Store the payment file',
});
// Svix's schedule, shortened after its first retry (5 s, as Svix): deliveries refused while n8n restarts
// come back within the suite's time.
const RETRY_SCHEDULE_MS = [5_000, 10_000, 20_000, 30_000, 60_000];
const STORED_FILE = /^payment-file-(\w+)-(\d{6})-execution-(\d+)$/;

/** The sandbox's companies in three month-ends of 100 each, every company in one. */
const monthEndBatches = (sandbox) =>
	Array.from({ length: MONTH_END.runs }, (_, run) =>
		sandbox.seed.companyIds.filter((_, index) => index % MONTH_END.runs === run),
	);

/** The signing secret's credential and the Partner API credential holding every company of `sandbox`. */
function monthEndCredentials(sandbox, signingSecret) {
	const issued = sandbox.issueTokens(
		sandbox.seed.companyIds.map((companyId) => ({ companyId, scopes: [...ALL_SCOPES], kind: 'apiKey' })),
	);
	const companies = issued.map(({ companyId, access_token: token }) => ({
		companyId,
		label: sandbox.seed.company(companyId).name,
		token,
	}));
	return [
		webhookSecretCredential({ ...MONTH_END.webhookCredential, signingSecret }),
		partnerCredential({ ...MONTH_END.partnerCredential, sandbox, companies }),
	];
}

/** The workflow: both triggers → Download the payment file → Store the payment file; polls at `pollTimes`. */
function monthEndWorkflow({ pollTimes }) {
	const id = MONTH_END.workflowId;
	const partner = { partnerPayrollPartnerApi: { ...MONTH_END.partnerCredential } };
	const node = (name, type, position, rest) => ({
		id: `${id}-${position.join('-')}`,
		name,
		type,
		typeVersion: 1,
		position,
		...rest,
	});
	const to = (name) => ({ main: [[{ node: name, type: 'main', index: 0 }]] });
	return {
		id,
		name: 'Partner month-end (e2e)',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			node(NODES.webhook, `${packageName}.partnerPayrollWebhookTrigger`, [0, 0], {
				webhookId: MONTH_END.webhookId,
				parameters: { events: ['payroll.run'], companies: 'all', matchPartnerCompanies: true, options: {} },
				credentials: { partnerPayrollWebhookApi: { ...MONTH_END.webhookCredential }, ...partner },
			}),
			node(NODES.poll, `${packageName}.partnerPayrollTrigger`, [0, 220], {
				parameters: {
					pollTimes,
					authentication: 'partnerApi',
					event: 'payrollCompleted',
					companies: 'all',
					months: 'specific',
					specificMonths: MONTH_END.month,
					options: {},
				},
				credentials: partner,
			}),
			node(NODES.download, `${packageName}.partnerPayroll`, [260, 110], {
				parameters: {
					authentication: 'partnerApi',
					resource: 'payroll',
					operation: 'downloadPaymentFile',
					companyId: '={{ $json.companyId }}',
					month: '={{ $json.month }}',
				},
				credentials: partner,
			}),
			node(NODES.store, 'n8n-nodes-base.readWriteFile', [520, 110], {
				parameters: {
					operation: 'write',
					fileName: '=files/payment-file-{{ $json.companyId }}-{{ $json.month }}-execution-{{ $execution.id }}',
					dataPropertyName: 'data',
					options: {},
				},
			}),
		],
		connections: {
			[NODES.webhook]: to(NODES.download),
			[NODES.poll]: to(NODES.download),
			[NODES.download]: to(NODES.store),
		},
	};
}

/** Imports the credentials and the workflow through `cli` (n8n not running yet) and publishes it; returns the signing secret. */
async function importMonthEnd(cli, sandbox, { pollTimes }) {
	const signingSecret = newSigningSecret();
	await cli.importCredentials(monthEndCredentials(sandbox, signingSecret));
	await cli.importWorkflows([monthEndWorkflow({ pollTimes })]);
	await cli.publishWorkflow(MONTH_END.workflowId);
	return signingSecret;
}

/** Two sandbox endpoints at the workflow's production URL in the n8n at `n8nUrl`: each event is delivered twice. */
async function registerMonthEndEndpoints(sandbox, { n8nUrl, signingSecret }) {
	const url = `${n8nUrl}${productionPath(MONTH_END.webhookId)}`;
	for (const _copy of [1, 2]) await registerEndpoint(sandbox, { url, secret: signingSecret });
	await sandboxControl(sandbox, 'POST', '/webhooks/settings', { retryScheduleMs: RETRY_SCHEDULE_MS });
}

const statusRequests = (requests) =>
	requests.filter((request) => request.path.endsWith('/payroll-status') && request.query?.date === MONTH_END.month);
const companyOf = (request) => request.path.split('/')[4];

/** Waits for the activation's poll to have asked about every company: its baseline, nothing completed yet. */
async function waitForBaseline(sandbox, schedule) {
	const total = sandbox.seed.companyIds.length;
	await waitUntil(
		`the activation's poll to ask about all ${total} companies`,
		async () => new Set(statusRequests(await listRequests(sandbox)).map(companyOf)).size === total,
		schedule.waitMs(1),
	);
}

/** The stored payment files in `folders` (the `files/` folders the workflow writes to): {companyId, month, executionId, file}. */
function storedFiles(folders) {
	return folders.flatMap((folder) =>
		(fs.existsSync(folder) ? fs.readdirSync(folder) : []).flatMap((name) => {
			const match = STORED_FILE.exec(name);
			return match ? [{ companyId: match[1], month: match[2], executionId: match[3], file: path.join(folder, name) }] : [];
		}),
	);
}

/** This month-end's messages in the sandbox, each with its two deliveries. */
async function messagesOf(sandbox, companies) {
	const wanted = new Set(companies);
	return (await sandboxControl(sandbox, 'GET', '/webhooks/messages')).filter(
		(message) => message.type === 'payroll.run' && wanted.has(message.body.data.companyId),
	);
}

/**
 * What a month-end left, as plain data that the suites compare whole, so that a finding names its company,
 * execution ids and file:
 * - `notOnce`: the companies of the run without exactly one stored file, each with the executions that
 *   stored one (and any other company this run stored a file for);
 * - `wrongBytes`: stored files that are not the company's payment file (sha256);
 * - `undelivered`: deliveries that did not end with a 2xx;
 * - `unpolled`: companies that no poll saw completed after the month-end;
 * - `executionIds`: the executions that stored this month-end's files.
 */
function outcomeOf({ sandbox, companies, fresh, messages, requests, completedAt }) {
	const byCompany = new Map(companies.map((companyId) => [companyId, []]));
	for (const { companyId, executionId } of fresh) {
		if (!byCompany.has(companyId)) byCompany.set(companyId, []);
		byCompany.get(companyId).push(executionId);
	}
	const polled = new Set(
		statusRequests(requests)
			.filter((request) => request.status === 200 && Date.parse(request.time) > completedAt)
			.map(companyOf),
	);
	return {
		notOnce: [...byCompany]
			.filter(([, executionIds]) => executionIds.length !== 1)
			.map(([companyId, executionIds]) => ({ companyId, executionIds })),
		wrongBytes: fresh
			.filter(({ companyId, month, file }) => sha256(fs.readFileSync(file)) !== sha256(sandbox.seed.paymentFile(companyId, month)))
			.map(({ file }) => path.basename(file)),
		undelivered: messages.flatMap((message) =>
			message.deliveries
				.filter(({ state }) => state !== 'delivered')
				.map((delivery) => ({ messageId: message.id, ...delivery })),
		),
		unpolled: companies.filter((companyId) => !polled.has(companyId)),
		// A poll's execution stores the files of every run that poll found.
		executionIds: [...new Set(fresh.map(({ executionId }) => executionId))].sort((a, b) => Number(a) - Number(b)),
	};
}

/**
 * One month-end: the months of `companies` completed in one step of the sandbox, all with one end instant. With `restart`, n8n is restarted once half of them have a stored file. Then it
 * waits until every delivery has ended, for two more polls (the second starts once the first has ended, so
 * whatever the first fired has started), and until `executionsDone()`. `folders()`: the `files/` folders
 * the workflow writes to. Resolves {outcome (outcomeOf), deliveries, endDates (the completions' distinct end instants)}.
 */
async function runMonthEnd({ sandbox, companies, schedule, folders, executionsDone, restart }) {
	await sandboxControl(sandbox, 'DELETE', '/requests');
	const before = new Set(storedFiles(folders()).map(({ file }) => file));
	const fresh = () => storedFiles(folders()).filter(({ file }) => !before.has(file));
	const completedAt = Date.now();
	const executionEndDate = new Date(Math.floor(completedAt / 1000) * 1000).toISOString();
	// One request: the sandbox completes every month in one step and sends every event at once.
	const completed = await sandboxControl(
		sandbox,
		'POST',
		'/payroll-status',
		companies.map((companyId) => ({ companyId, month: MONTH_END.month, status: 'completed', executionEndDate })),
	);
	const waitMs = schedule.waitMs(2) + RETRY_SCHEDULE_MS.reduce((sum, ms) => sum + ms, 0);
	if (restart) {
		await waitUntil('half of the files to be stored', () => fresh().length >= companies.length / 2, waitMs);
		await restart();
	}
	const ended = ({ state }) => state !== 'sending' && state !== 'retrying';
	await waitUntil(
		'every delivery to end',
		async () => {
			const messages = await messagesOf(sandbox, companies);
			return messages.length === companies.length && messages.every((message) => message.deliveries.every(ended));
		},
		waitMs,
	);
	const watcher = companies[0];
	const since = await statusPollsOf(sandbox, watcher, MONTH_END.month);
	await waitForStatusPolls(sandbox, { companyId: watcher, month: MONTH_END.month, since, count: 2, schedule });
	await waitUntil('every execution to finish', executionsDone, waitMs);
	const messages = await messagesOf(sandbox, companies);
	const outcome = outcomeOf({
		sandbox,
		companies,
		fresh: fresh(),
		messages,
		requests: await listRequests(sandbox),
		completedAt,
	});
	const endDates = [...new Set(completed.map((status) => status.executionEndDate))];
	return { outcome, deliveries: messages.flatMap((message) => message.deliveries).length, endDates };
}

/** What every month-end must leave: each company's own file, once; every copy delivered; every run polled. */
const EXPECTED_OUTCOME = Object.freeze({ notOnce: [], wrongBytes: [], undelivered: [], unpolled: [] });

module.exports = {
	MONTH_END,
	EXPECTED_OUTCOME,
	monthEndBatches,
	importMonthEnd,
	registerMonthEndEndpoints,
	waitForBaseline,
	storedFiles,
	runMonthEnd,
};
