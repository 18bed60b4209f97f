'use strict';
// The webhook trigger under deliveries, side by side with n8n's own Webhook node receiving the same
// deliveries without any check: the time from the sandbox's send to the answer (one delivery at a time,
// sent by the sandbox as Svix would), and how many deliveries per second one n8n accepts (signed in this
// process, several in flight at once). Every delivery is a new event, so each one starts an execution
// in both workflows. Signatures are made with the sandbox's own Svix code, not the package's.
const crypto = require('node:crypto');
const { svixSignature } = require('../../sandbox/webhooks');

const WEBHOOK_TRIGGER = 'n8n-nodes-partner-payroll.partnerPayrollWebhookTrigger';
const SECRET_CREDENTIAL = { id: 'benchWebhookSecret', name: 'Bench webhook signing secret' };
const LATENCY_DELIVERIES = 20;
const THROUGHPUT_DELIVERIES = 300;
const IN_FLIGHT = 10;

// `urlPath`: after /webhook/. The trigger's URL holds its webhook id; the Webhook node's, its Path parameter.
const receivers = {
	trigger: { id: 'benchWebhookTrigger', webhookId: 'bench-webhook-trigger', urlPath: 'bench-webhook-trigger/webhook' },
	plain: { id: 'benchPlainWebhook', webhookId: 'bench-plain-webhook', urlPath: 'bench-plain-webhook' },
};

/** The secret of the bench's endpoint, new for each bench run. */
const signingSecret = `whsec_${crypto.randomBytes(24).toString('base64')}`;

function webhookSecretRecord() {
	return { ...SECRET_CREDENTIAL, type: 'partnerPayrollWebhookApi', data: { signingSecret, additionalSigningSecrets: '' } };
}

/** Receiver → No Operation; both answer as soon as the execution exists (onReceived). */
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

async function postSigned(url) {
	const id = `msg_bench_${crypto.randomBytes(9).toString('hex')}`;
	const timestamp = String(Math.floor(Date.now() / 1000));
	const body = newEventBody();
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'svix-id': id, 'svix-timestamp': timestamp, 'svix-signature': svixSignature(signingSecret, id, timestamp, body) },
		body,
	});
	await response.arrayBuffer();
	return response.status;
}

/** `count` deliveries, `IN_FLIGHT` at a time: deliveries per second and the answers that were not 2xx. */
async function throughputRun(url, count = THROUGHPUT_DELIVERIES) {
	let sent = 0;
	let failed = 0;
	const started = performance.now();
	await Promise.all(
		Array.from({ length: IN_FLIGHT }, async () => {
			while (sent < count) {
				sent += 1;
				const status = await postSigned(url);
				if (status < 200 || status >= 300) failed += 1;
			}
		}),
	);
	const wallMs = performance.now() - started;
	return { deliveries: count, failed, wallMs, perSecond: (count / wallMs) * 1000 };
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

/** Latency and throughput of both receivers, `runs` times, alternating which goes first. */
async function measureWebhooks(bench, sandbox, runs, log) {
	await sandbox.control('POST', '/webhooks/settings', { retryScheduleMs: [] });
	const endpoints = {};
	for (const [who, receiver] of Object.entries(receivers)) {
		endpoints[who] = (await sandbox.control('POST', '/webhooks', { url: urlOf(bench, receiver), secret: signingSecret })).id;
	}
	// Warm-up, not counted: loads the trigger's code and n8n's webhook paths.
	for (const who of Object.keys(receivers)) await throughputRun(urlOf(bench, receivers[who]), 20);
	const results = { latency: { trigger: [], plain: [] }, throughput: { trigger: [], plain: [] }, inFlight: IN_FLIGHT };
	for (let run = 0; run < runs; run += 1) {
		for (const who of run % 2 === 0 ? ['trigger', 'plain'] : ['plain', 'trigger']) {
			const latency = await latencyRun(sandbox, endpoints[who]);
			const throughput = await throughputRun(urlOf(bench, receivers[who]));
			results.latency[who].push(latency);
			results.throughput[who].push(throughput);
			log(`  ${who}: answer in ${latency.medianMs} ms (median of ${LATENCY_DELIVERIES}), ${throughput.perSecond.toFixed(1)} deliveries/s, ${throughput.failed + latency.failed} not 2xx`);
		}
	}
	await sandbox.control('DELETE', '/webhooks');
	return results;
}

module.exports = { webhookSecretRecord, webhookBenchWorkflows, measureWebhooks, LATENCY_DELIVERIES, THROUGHPUT_DELIVERIES };
