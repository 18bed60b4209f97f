'use strict';
// The Partner Payroll Webhook Trigger inside a real n8n (`n8n start`, workflows published), the sandbox
// posting signed deliveries to the production URLs the way Svix does (retries with the same message id on
// a shortened schedule). Each scenario uses its own company or month, so the executions it counts are its
// own. Workflow "once": default parameters; workflow "rerun": Fire Again on Re-Run.
const {
	newSigningSecret,
	registerEndpoint,
	sandboxControl,
	startPublishedWebhookTriggers,
	webhookTriggerItems,
	webhookTriggerWorkflow,
} = require('../lib');

jest.setTimeout(180_000);
const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing

const SECRET = newSigningSecret();
const ONCE = { id: 'wfWebhookOnce01', name: 'Webhook once (e2e)', webhookId: 'e2e-webhook-once' };
const RERUN = {
	id: 'wfWebhookRerun01',
	name: 'Webhook re-run (e2e)',
	webhookId: 'e2e-webhook-rerun',
};
// Retries after 1 s, 2 s, then every 4 s for about a minute: long enough to outlast an n8n restart.
const RETRY_SCHEDULE_MS = [1000, 2000, ...Array(15).fill(4000)];

let run;
let sandbox;
let api;
/** Endpoint ids in the sandbox: the production URL of each workflow with the right secret. */
let onceEndpoint;
let rerunEndpoint;

const credential = { id: 'ppWebhookSecret1', name: 'Webhook signing secret', signingSecret: SECRET };

beforeAll(async () => {
	run = await startPublishedWebhookTriggers({
		prefix: 'n8n-e2e-webhook-',
		credentials: [credential],
		workflows: [
			{ ...ONCE, credential },
			{ ...RERUN, credential, parameters: { options: { fireOnRerun: true } } },
		],
	});
	({ sandbox, api } = run);
	await sandboxControl(sandbox, 'POST', '/webhooks/settings', {
		retryScheduleMs: RETRY_SCHEDULE_MS,
	});
	onceEndpoint = (
		await registerEndpoint(sandbox, { url: run.productionUrl(ONCE.webhookId), secret: SECRET })
	).id;
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await run?.dispose();
});

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const itemsOf = async (workflow, predicate) =>
	(await api.executions(workflow.id))
		.filter((execution) => execution.stoppedAt)
		.flatMap(webhookTriggerItems)
		.filter(predicate);
const ofCompanyMonth = (companyId, month) => (item) =>
	item.companyId === companyId && item.month === month;

const payrollRun = (companyId, month, effectiveDate = '2026-11-27T18:00:00+00:00') => ({
	type: 'payroll.run',
	data: { companyId, effectiveDate, payrollMonth: month },
});
const send = (body) => sandboxControl(sandbox, 'POST', '/webhooks/send', body);
const attemptsOf = async (messageId) =>
	(await sandboxControl(sandbox, 'GET', '/webhooks/deliveries')).filter(
		(attempt) => attempt.messageId === messageId,
	);
/** The deliveries of every message with this id (copies sent at once are several), once none is `sending` or `retrying` any more. */
async function settled(messageId, timeoutMs = 90_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const deliveries = (await sandboxControl(sandbox, 'GET', '/webhooks/messages'))
			.filter((message) => message.id === messageId)
			.flatMap((message) => message.deliveries);
		if (
			deliveries.length &&
			deliveries.every((delivery) => !['sending', 'retrying'].includes(delivery.state))
		) {
			return deliveries;
		}
		if (Date.now() > deadline)
			throw new Error(`message ${messageId} still not delivered: ${JSON.stringify(deliveries)}`);
		await pause(500);
	}
}
/** Waits for `count` items matching, then for later executions that should not come. */
async function itemsAfterQuiet(workflow, predicate, count) {
	const deadline = Date.now() + 30_000;
	while ((await itemsOf(workflow, predicate)).length < count && Date.now() < deadline)
		await pause(500);
	await pause(3_000);
	return itemsOf(workflow, predicate);
}

it('a completion in the sandbox gives exactly one execution with the item', async () => {
	await sandboxControl(sandbox, 'POST', '/payroll-status', {
		companyId: 'FR1001',
		month: '202611',
		status: 'completed',
		executionEndDate: '2026-11-27T18:00:00.000Z',
	});
	const items = await itemsAfterQuiet(ONCE, ofCompanyMonth('FR1001', '202611'), 1);
	expect(items).toEqual([
		{
			event: 'payroll.run',
			companyId: 'FR1001',
			month: '202611',
			monthName: 'November 2026',
			effectiveDate: '2026-11-27T18:00:00.000Z',
			effectiveDateRaw: '2026-11-27T18:00:00+00:00',
			isRerun: false,
			dedupeKey: 'payroll:FR1001:202611',
			messageId: expect.stringMatching(/^msg_/),
			source: 'webhook',
		},
	]);
	const [attempt] = await attemptsOf(items[0].messageId);
	expect(attempt.status).toBe(200);
});

it('a wrong secret gets 401 and no execution; so does a timestamp 400 s old', async () => {
	const wrong = await registerEndpoint(sandbox, {
		url: run.productionUrl(ONCE.webhookId),
		secret: newSigningSecret(),
	});
	const bad = await send({ endpointId: wrong.id, ...payrollRun('FR1001', '202601') });
	const old = await send({
		endpointId: onceEndpoint,
		timestampOffsetSeconds: -400,
		...payrollRun('FR1001', '202602'),
	});
	expect((await attemptsOf(bad.id))[0].status).toBe(401);
	expect((await attemptsOf(old.id))[0].status).toBe(401);
	await pause(3_000);
	expect(await itemsOf(ONCE, (item) => ['202601', '202602'].includes(item.month))).toEqual([]);
});

it('the same message 3 times in a row gives one execution', async () => {
	const first = await send({
		endpointId: onceEndpoint,
		id: 'msg_e2e_three_times',
		...payrollRun('ES2001', '202603'),
	});
	for (let copy = 0; copy < 2; copy += 1) {
		await sandboxControl(sandbox, 'POST', '/webhooks/resend', {
			messageId: first.id,
			endpointId: onceEndpoint,
		});
	}
	expect((await attemptsOf(first.id)).map((attempt) => attempt.status)).toEqual([200, 200, 200]);
	expect(await itemsAfterQuiet(ONCE, ofCompanyMonth('ES2001', '202603'), 1)).toHaveLength(1);
});

it('10 copies at once give one execution; the copies answered 409 are retried and acknowledged', async () => {
	const body = {
		endpointId: onceEndpoint,
		id: 'msg_e2e_ten_at_once',
		...payrollRun('ES2001', '202604'),
	};
	await Promise.all(Array.from({ length: 10 }, () => send(body)));
	await settled(body.id);
	const statuses = (await attemptsOf(body.id)).map((attempt) => attempt.status);
	expect(statuses.filter((status) => status >= 200 && status < 300).length).toBe(10);
	expect(await itemsAfterQuiet(ONCE, ofCompanyMonth('ES2001', '202604'), 1)).toHaveLength(1);
});

it('a re-send with a new message id for the same month gives none; with Fire Again on Re-Run and a new date, one', async () => {
	rerunEndpoint = (
		await registerEndpoint(sandbox, { url: run.productionUrl(RERUN.webhookId), secret: SECRET })
	).id;
	for (const endpointId of [onceEndpoint, rerunEndpoint]) {
		await send({ endpointId, ...payrollRun('GB3001', '202605', '2026-05-28T10:00:00+00:00') });
		await send({ endpointId, ...payrollRun('GB3001', '202605', '2026-05-28T10:00:00+00:00') });
		await send({ endpointId, ...payrollRun('GB3001', '202605', '2026-05-29T08:00:00+00:00') });
	}
	expect(await itemsAfterQuiet(ONCE, ofCompanyMonth('GB3001', '202605'), 1)).toMatchObject([
		{ isRerun: false },
	]);
	const rerun = await itemsAfterQuiet(RERUN, ofCompanyMonth('GB3001', '202605'), 2);
	expect(rerun.map((item) => [item.isRerun, item.dedupeKey]).sort()).toEqual([
		[false, 'payroll:GB3001:202605'],
		[true, 'payroll:GB3001:202605:2026-05-29T08:00:00.000Z'],
	]);
});

it('a filtered event is acknowledged (2xx) and starts nothing', async () => {
	const sent = await send({
		endpointId: onceEndpoint,
		type: 'integration.activated',
		data: { companyId: 'FR1001', effectiveDate: '2026-11-01T00:00:00+00:00' },
	});
	expect((await attemptsOf(sent.id)).map((attempt) => attempt.status)).toEqual([200]);
	await pause(3_000);
	expect(
		(await api.executions(ONCE.id))
			.flatMap(webhookTriggerItems)
			.filter((item) => item.event !== 'payroll.run'),
	).toEqual([]);
});

it('publishing a trigger whose setting would fail every delivery is refused, naming the setting', async () => {
	const refusal = 'Timestamp Tolerance (Seconds) must be a number of seconds, at least 1';
	const workflow = webhookTriggerWorkflow({
		id: 'wfWebhookBadTolerance',
		name: 'Webhook with a tolerance that is not a number (e2e)',
		webhookId: 'e2e-webhook-bad-tolerance',
		credential,
		parameters: { options: { toleranceSeconds: '={{ "five minutes" }}' } },
	});
	const saved = await run.rest.createWorkflow(workflow);
	const publishing = run.rest.request('POST', `/rest/workflows/${saved.id}/activate`, {
		versionId: saved.versionId,
		expectedChecksum: saved.checksum,
	});
	// n8n 2.8.4 refuses the publish request itself. n8n 2.40.7 accepts it and activates the triggers in
	// the background (its publication outbox); a trigger's error is then its publication status, which the
	// editor shows.
	const answered = await publishing.then(
		() => undefined,
		(error) => error.message,
	);
	if (answered !== undefined) {
		expect(answered).toContain(refusal);
		return;
	}
	const deadline = Date.now() + 60_000;
	let publication;
	do {
		if (Date.now() > deadline) throw new Error(`still publishing: ${JSON.stringify(publication)}`);
		await pause(1_000);
		publication = await run.rest.request('GET', `/rest/workflows/${saved.id}/publication-status`);
	} while (publication.status === 'in_progress');
	expect(publication).toMatchObject({
		status: 'failed',
		triggers: [{ status: 'failed', errorMessage: expect.stringContaining(refusal) }],
	});
});

it('after a secret rotation (two signatures) and with webhook-* headers, deliveries are accepted', async () => {
	const standard = await registerEndpoint(sandbox, {
		url: run.productionUrl(ONCE.webhookId),
		secret: SECRET,
		headers: 'webhook',
	});
	const viaStandard = await send({ endpointId: standard.id, ...payrollRun('FR1001', '202606') });
	expect((await attemptsOf(viaStandard.id))[0].status).toBe(200);

	await sandboxControl(sandbox, 'POST', '/webhooks/rotate', { endpointId: onceEndpoint });
	const afterRotation = await send({ endpointId: onceEndpoint, ...payrollRun('FR1001', '202607') });
	expect((await attemptsOf(afterRotation.id))[0].status).toBe(200);
	expect(
		await itemsAfterQuiet(ONCE, (item) => ['202606', '202607'].includes(item.month), 2),
	).toHaveLength(2);
});

it('a message sent while n8n restarts is delivered by the retry, once', async () => {
	await run.instance.stop();
	const sent = await send({ endpointId: rerunEndpoint, ...payrollRun('FR1001', '202608') });
	expect(sent.deliveries).toEqual([{ endpointId: rerunEndpoint, state: 'retrying', attempts: 1 }]);
	await run.instance.start();
	expect(await settled(sent.id)).toEqual([
		{ endpointId: rerunEndpoint, state: 'delivered', attempts: expect.any(Number) },
	]);
	expect((await attemptsOf(sent.id)).at(-1).status).toBe(200);
	const items = await itemsAfterQuiet(RERUN, ofCompanyMonth('FR1001', '202608'), 1);
	if (items.length !== 1) {
		// What each attempt was answered, and the workflow's executions: a lost run or a slow one.
		const executions = (await api.executions(RERUN.id, { includeData: false })).map(
			({ id, status, startedAt, stoppedAt }) => ({ id, status, startedAt, stoppedAt }),
		);
		const attempts = (await attemptsOf(sent.id)).map(({ at, status, response, error }) => ({ at, status, response, error }));
		throw new Error(`${items.length} items of FR1001 202608; attempts ${JSON.stringify(attempts)}; executions ${JSON.stringify(executions)}`);
	}
});

it('after the restart, events delivered before it stay recorded (static data): re-sends start nothing', async () => {
	// Delivered before the restart, in this order; the process memory that also knew them is gone.
	const before = [
		['FR1001', '202611'],
		['ES2001', '202603'],
		['ES2001', '202604'],
		['FR1001', '202607'],
	];
	for (const [companyId, month] of before) {
		const sent = await send({ endpointId: onceEndpoint, ...payrollRun(companyId, month) });
		expect((await attemptsOf(sent.id)).map((attempt) => attempt.status)).toEqual([200]);
	}
	await pause(3_000);
	for (const [companyId, month] of before) {
		expect(await itemsOf(ONCE, ofCompanyMonth(companyId, month))).toHaveLength(1);
	}
});
