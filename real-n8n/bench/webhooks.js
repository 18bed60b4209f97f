'use strict';
// The webhook trigger under deliveries, side by side with a minimal community webhook trigger that checks
// nothing (fixtures/n8n-nodes-bench-plain-webhook, the floor a community trigger can reach in n8n) and n8n's
// own Webhook node: the time from the sandbox's send to the answer (one delivery at a time, sent by the
// sandbox as Svix would), and how many deliveries per second one n8n accepts (signed in this process,
// several in flight at once, every event delivered twice: the copy, as Svix sends it again, after the first
// answer). Signatures are made with the sandbox's own Svix code, not the package's.
const crypto = require('node:crypto');
const os = require('node:os');
const path = require('node:path');
const { svixSignature } = require('../../sandbox/webhooks');

const WEBHOOK_TRIGGER = 'n8n-nodes-partner-payroll.partnerPayrollWebhookTrigger';
const FIXTURE_PACKAGE = path.join(__dirname, 'fixtures', 'n8n-nodes-bench-plain-webhook');
const FIXTURE_TRIGGER = 'n8n-nodes-bench-plain-webhook.benchPlainWebhookTrigger';
const SECRET_CREDENTIAL = { id: 'benchWebhookSecret', name: 'Bench webhook signing secret' };
const LATENCY_DELIVERIES = 20;
/** Events per throughput run; each is delivered twice. */
const THROUGHPUT_EVENTS = 150;
const IN_FLIGHT = 10;

// `urlPath`: after /webhook/. A trigger's URL holds its webhook id; the Webhook node's, its Path parameter.
const receivers = {
	trigger: { id: 'benchWebhookTrigger', webhookId: 'bench-webhook-trigger', urlPath: 'bench-webhook-trigger/webhook' },
	fixture: { id: 'benchFixtureWebhook', webhookId: 'bench-fixture-webhook', urlPath: 'bench-fixture-webhook/webhook' },
	plain: { id: 'benchPlainWebhook', webhookId: 'bench-plain-webhook', urlPath: 'bench-plain-webhook' },
};

/** The secret of the bench's endpoint, new for each bench run. */
const signingSecret = `whsec_${crypto.randomBytes(24).toString('base64')}`;

function webhookSecretRecord() {
	return { ...SECRET_CREDENTIAL, type: 'partnerPayrollWebhookApi', data: { signingSecret, additionalSigningSecrets: '' } };
}

/** Receiver → No Operation; all answer as soon as the execution exists (onReceived). */
function receiverWorkflow({ id, webhookId }, receiver) {
	return {
		id,
		name: `Bench ${id}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{ id: `${id}-0`, name: 'Receiver', webhookId, position: [0, 0], ...receiver },
			{ id: `${id}-1`, name: 'Received', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} },
		],
		connections: { Receiver: { main: [[{ node: 'Received', type: 'main', index: 0 }]] } },
	};
}

function webhookBenchWorkflows() {
	return [
		receiverWorkflow(receivers.trigger, {
			type: WEBHOOK_TRIGGER,
			typeVersion: 1,
			parameters: { events: ['payroll.run'], companies: 'all', options: {} },
			credentials: { partnerPayrollWebhookApi: SECRET_CREDENTIAL },
		}),
		receiverWorkflow(receivers.fixture, { type: FIXTURE_TRIGGER, typeVersion: 1, parameters: {} }),
		receiverWorkflow(receivers.plain, {
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			parameters: { httpMethod: 'POST', path: receivers.plain.urlPath, responseMode: 'onReceived', options: {} },
		}),
	];
}

const urlOf = (bench, receiver) => `${bench.instance.url}/webhook/${receiver.urlPath}`;

/** A new event each call: company and month never repeat within a bench run. */
let nextEvent = 0;
function newEventBody() {
	nextEvent += 1;
	const month = `${2000 + Math.floor(nextEvent / 12)}${String((nextEvent % 12) + 1).padStart(2, '0')}`;
	return JSON.stringify({ type: 'payroll.run', data: { companyId: `BENCH${nextEvent}`, effectiveDate: '2026-11-27T18:00:00+00:00', payrollMonth: month } });
}

/** A new message (id and body): signed again at each send, as Svix signs each attempt. */
function newMessage() {
	return { id: `msg_bench_${crypto.randomBytes(9).toString('hex')}`, body: newEventBody() };
}

/** Sends a message once: its answer's status, body and time until the answer ended. */
async function postSigned(url, { id, body }) {
	const timestamp = String(Math.floor(Date.now() / 1000));
	const started = performance.now();
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'svix-id': id, 'svix-timestamp': timestamp, 'svix-signature': svixSignature(signingSecret, id, timestamp, body) },
		body,
	});
	const text = await response.text();
	return { status: response.status, text, answerMs: performance.now() - started };
}

/** The value below which `share` of the sorted `values` lie (nearest rank). */
function percentile(sorted, share) {
	return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)];
}

/** Sends every message `times` times in a row (again once answered), `IN_FLIGHT` deliveries at a time; the answers. */
async function sendAll(url, messages, times) {
	let taken = 0;
	const answers = [];
	await Promise.all(
		Array.from({ length: IN_FLIGHT }, async () => {
			while (taken < messages.length) {
				const message = messages[taken];
				taken += 1;
				for (let time = 0; time < times; time += 1) answers.push(await postSigned(url, message));
			}
		}),
	);
	return answers;
}

/** How many answers said the package's trigger started the workflow (the others start one for every delivery). */
const startedByTrigger = (answers) => answers.filter((answer) => answer.text.includes('Workflow started for message')).length;

/**
 * `events` events, each delivered twice (the copy right after the first answer): deliveries per second,
 * the answers' p99, the answers that were not 2xx and those that said the workflow started.
 */
async function throughputRun(url, events = THROUGHPUT_EVENTS) {
	const started = performance.now();
	const answers = await sendAll(url, Array.from({ length: events }, newMessage), 2);
	const wallMs = performance.now() - started;
	const times = answers.map((answer) => answer.answerMs).sort((a, b) => a - b);
	return {
		events,
		deliveries: answers.length,
		failed: answers.filter((answer) => answer.status < 200 || answer.status >= 300).length,
		startedByTrigger: startedByTrigger(answers),
		wallMs,
		perSecond: (answers.length / wallMs) * 1000,
		p99Ms: percentile(times, 0.99),
	};
}

/** One delivery at a time from the sandbox: its attempt records the time until the answer ended. */
async function latencyRun(sandbox, endpointId) {
	const durations = [];
	let failed = 0;
	for (let index = 0; index < LATENCY_DELIVERIES; index += 1) {
		const message = await sandbox.control('POST', '/webhooks/send', { endpointId, type: 'payroll.run', data: JSON.parse(newEventBody()).data });
		const attempt = (await sandbox.control('GET', '/webhooks/deliveries')).find((entry) => entry.messageId === message.id);
		if (!(attempt.status >= 200 && attempt.status < 300)) failed += 1;
		durations.push(attempt.durationMs);
	}
	durations.sort((a, b) => a - b);
	return { medianMs: durations[Math.floor(durations.length / 2)], failed };
}

/** Each receiver goes first in one run of three, so that none always meets the machine just after another. */
function orderOf(run) {
	const order = Object.keys(receivers);
	return [...order.slice(run % order.length), ...order.slice(0, run % order.length)];
}

/**
 * `events` new events delivered once each to the webhook trigger, not measured: its record (the events,
 * messages and runs it keeps, up to its bounds) then holds what a partner's record holds after a busy
 * month-end, which every later delivery loads and saves. Fails unless each one started the workflow.
 */
async function fillTriggerRecord(url, events, log) {
	const started = performance.now();
	const answers = await sendAll(url, Array.from({ length: events }, newMessage), 1);
	const notStarted = answers.length - startedByTrigger(answers);
	if (notStarted > 0) throw new Error(`Filling the webhook trigger's record: ${notStarted} of ${events} new events did not start the workflow`);
	log(`  the webhook trigger's record filled by ${events} new events (${Math.round((performance.now() - started) / 1000)} s, not measured)`);
}

/**
 * Latency and throughput of every receiver, `runs` times, rotating which goes first. `fillRecord`: new
 * events sent to the webhook trigger first (fillTriggerRecord).
 */
async function measureWebhooks(bench, sandbox, runs, log, { fillRecord = 0 } = {}) {
	await sandbox.control('POST', '/webhooks/settings', { retryScheduleMs: [] });
	const endpoints = {};
	for (const [who, receiver] of Object.entries(receivers)) {
		endpoints[who] = (await sandbox.control('POST', '/webhooks', { url: urlOf(bench, receiver), secret: signingSecret })).id;
	}
	// Warm-up, not counted: loads the trigger's code and n8n's webhook paths.
	for (const who of Object.keys(receivers)) await throughputRun(urlOf(bench, receivers[who]), 20);
	if (fillRecord > 0) await fillTriggerRecord(urlOf(bench, receivers.trigger), fillRecord, log);
	const results = { latency: { trigger: [], fixture: [], plain: [] }, throughput: { trigger: [], fixture: [], plain: [] }, inFlight: IN_FLIGHT, fillRecord };
	for (let run = 0; run < runs; run += 1) {
		for (const who of orderOf(run)) {
			const latency = await latencyRun(sandbox, endpoints[who]);
			const load = os.loadavg()[0];
			const throughput = { ...(await throughputRun(urlOf(bench, receivers[who]))), load };
			results.latency[who].push(latency);
			results.throughput[who].push(throughput);
			log(`  ${who}: answer in ${latency.medianMs} ms (median of ${LATENCY_DELIVERIES}), ${throughput.perSecond.toFixed(1)} deliveries/s (p99 ${Math.round(throughput.p99Ms)} ms), ${throughput.failed + latency.failed} not 2xx, load ${load.toFixed(2)}`);
		}
	}
	await sandbox.control('DELETE', '/webhooks');
	return results;
}

/** Each receiver's URL in a running bench n8n. */
function receiverUrls(bench) {
	return Object.fromEntries(Object.entries(receivers).map(([who, receiver]) => [who, urlOf(bench, receiver)]));
}

module.exports = { FIXTURE_PACKAGE, webhookSecretRecord, webhookBenchWorkflows, measureWebhooks, receiverUrls, throughputRun, sendAll, newMessage, startedByTrigger, LATENCY_DELIVERIES };
