'use strict';
// The Partner Payroll Webhook Trigger with a Partner API credential linked (Match Companies of a Partner
// Credential) inside a real n8n: n8n hands the webhook the second credential, which the node shows only with
// the option on, and the sandbox's signed integration events become one connection change each. The
// deliveries are sent one after the other, each once the previous one was answered, so the executions'
// order is theirs: once the last delivery's execution is listed, every earlier one is too.
const {
	ALL_SCOPES,
	newSigningSecret,
	partnerCredential,
	registerEndpoint,
	sandboxControl,
	startPublishedWebhookTriggers,
	webhookTriggerItems,
} = require('../lib');

jest.setTimeout(180_000);
const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing

const SECRET = newSigningSecret();
const PARTNER_CREDENTIAL = { id: 'ppPartnerE2e01', name: 'Partner API (e2e)' };
const WORKFLOW = { id: 'wfWebhookPartner01', name: 'Webhook partner (e2e)', webhookId: 'e2e-webhook-partner' };
const LABELS = { FR1001: 'Boulangerie du Coin', FR1002: 'Café Central' };

let run;
let sandbox;
let api;

beforeAll(async () => {
	const credential = { id: 'ppWebhookSecret3', name: 'Webhook signing secret (partner e2e)', signingSecret: SECRET };
	run = await startPublishedWebhookTriggers({
		prefix: 'n8n-e2e-webhook-partner-',
		credentials: [credential],
		otherCredentials: (started) => [
			partnerCredential({
				...PARTNER_CREDENTIAL,
				sandbox: started,
				companies: Object.entries(LABELS).map(([companyId, label]) => ({
					companyId,
					label,
					token: started.issueToken({ companyId, scopes: ALL_SCOPES, kind: 'apiKey' }).access_token,
				})),
			}),
		],
		workflows: [
			{
				...WORKFLOW,
				credential,
				partnerCredential: PARTNER_CREDENTIAL,
				parameters: {
					events: ['payroll.run', 'integration.activated', 'integration.deactivated'],
					matchPartnerCompanies: true,
				},
			},
		],
	});
	({ sandbox, api } = run);
	// No retry: each test sends what it means to send.
	await sandboxControl(sandbox, 'POST', '/webhooks/settings', { retryScheduleMs: [] });
	await registerEndpoint(sandbox, { url: run.productionUrl(WORKFLOW.webhookId), secret: SECRET });
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await run?.dispose();
});

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends an integration event; resolves with the message once its delivery got n8n's answer. */
async function integration(companyId, event, effectiveDate) {
	const message = await sandboxControl(sandbox, 'POST', '/webhooks/integration', { companyId, event, effectiveDate });
	expect(message.deliveries.map(({ state }) => state)).toEqual(['delivered']);
	return message;
}

/**
 * The trigger's items of `companyId`, in order, once the execution of `lastMessage` (n8n lists an execution
 * a moment after answering its delivery) and every other one have finished.
 */
async function itemsOf(companyId, lastMessage) {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const executions = (await api.executions(WORKFLOW.id)).sort((a, b) => Number(a.id) - Number(b.id));
		const finished = executions.every((execution) => execution.stoppedAt);
		const items = finished ? executions.flatMap(webhookTriggerItems) : [];
		if (items.some((item) => item.messageId === lastMessage.id)) return items.filter((item) => item.companyId === companyId);
		if (Date.now() > deadline) throw new Error(`no finished execution of message ${lastMessage.id} after 60 s`);
		await pause(500);
	}
}

it('a deactivation delivered twice and repeated: one connectionLost with the label; an activation: one connectionRestored', async () => {
	const lost = await integration('FR1002', 'deactivated', '2026-12-01T09:30:00Z');
	const resent = await sandboxControl(sandbox, 'POST', '/webhooks/resend', { messageId: lost.id });
	expect(resent.deliveries.at(-1).state).toBe('delivered');
	await integration('FR1002', 'deactivated', '2026-12-02T09:30:00Z');
	const restored = await integration('FR1002', 'activated', '2026-12-03T09:30:00Z');
	expect(await itemsOf('FR1002', restored)).toEqual([
		{
			event: 'connectionLost',
			companyId: 'FR1002',
			label: 'Café Central',
			reason: 'integration.deactivated',
			effectiveDate: '2026-12-01T09:30:00.000Z',
			dedupeKey: 'integration:FR1002:deactivated:2026-12-01T09:30:00.000Z',
			messageId: lost.id,
			source: 'webhook',
		},
		expect.objectContaining({ event: 'connectionRestored', companyId: 'FR1002', label: 'Café Central' }),
	]);
});

it('an activation of a company not in the credential: the to-do item', async () => {
	const activated = await integration('ES2001', 'activated', '2026-12-03T10:00:00Z');
	expect(await itemsOf('ES2001', activated)).toEqual([
		expect.objectContaining({
			event: 'companyNotConnected',
			companyId: 'ES2001',
			todo: 'Connect company ES2001 with the connect link: it is not in the Partner API credential',
		}),
	]);
});

it('a payroll run: the item carries the label of the credential', async () => {
	const message = await sandboxControl(sandbox, 'POST', '/webhooks/payroll-run', { companyId: 'FR1001', month: '202610' });
	expect(message.deliveries.map(({ state }) => state)).toEqual(['delivered']);
	expect(await itemsOf('FR1001', message)).toEqual([
		expect.objectContaining({ event: 'payroll.run', companyId: 'FR1001', label: 'Boulangerie du Coin', month: '202610' }),
	]);
});
