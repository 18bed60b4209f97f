'use strict';
// The Partner Payroll Webhook Trigger in a real n8n, as the end-to-end suites drive it: workflows
// Webhook Trigger → Received (No Operation) with fixed webhook ids, published, and the sandbox posting
// signed deliveries to their production URLs (`/webhook/<webhookId>/webhook`) like Svix does.
const crypto = require('node:crypto');
const { packageName } = require('./paths');
const { sandboxControl, startTestSandbox } = require('./sandbox');
const { ensureN8nInstalled } = require('./install');
const { createInstance } = require('./instance');
const { N8nRest, N8nPublicApi } = require('./rest');

const WEBHOOK_TRIGGER_NAME = 'Partner Payroll Webhook Trigger';
const WEBHOOK_PATH = 'webhook';

/** A new `whsec_` secret, as the webhook portal shows one. */
const newSigningSecret = () => `whsec_${crypto.randomBytes(24).toString('base64')}`;

function webhookSecretCredential({ id, name, signingSecret, additionalSigningSecrets = '' }) {
	return {
		id,
		name,
		type: 'partnerPayrollWebhookApi',
		data: { signingSecret, additionalSigningSecrets },
	};
}

/**
 * The workflow `id`: the webhook trigger (with `parameters`) on `webhookId`, then Received. With
 * `partnerCredential`, the trigger also names that Partner API credential.
 */
function webhookTriggerWorkflow({
	id,
	name,
	webhookId,
	credential,
	partnerCredential,
	parameters = {},
	received = 'Received',
}) {
	const partner = partnerCredential
		? { partnerPayrollPartnerApi: { id: partnerCredential.id, name: partnerCredential.name } }
		: {};
	return {
		id,
		name,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: `${id}-webhook-trigger`,
				name: WEBHOOK_TRIGGER_NAME,
				type: `${packageName}.partnerPayrollWebhookTrigger`,
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters: { events: ['payroll.run'], companies: 'all', options: {}, ...parameters },
				credentials: {
					partnerPayrollWebhookApi: { id: credential.id, name: credential.name },
					...partner,
				},
			},
			{
				id: `${id}-received`,
				name: received,
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: {
			[WEBHOOK_TRIGGER_NAME]: { main: [[{ node: received, type: 'main', index: 0 }]] },
		},
	};
}

const productionPath = (webhookId) => `/webhook/${webhookId}/${WEBHOOK_PATH}`;

/**
 * A real n8n with the given webhook-trigger `workflows` (records as webhookTriggerWorkflow takes them)
 * and their `credentials` imported and published, a sandbox, an owner and a public API key. Call
 * `dispose()` in afterAll. `otherCredentials(sandbox)`: more credential records to import as they are.
 */
async function startPublishedWebhookTriggers({
	prefix,
	credentials,
	otherCredentials = () => [],
	workflows,
	instanceOptions = {},
}) {
	await ensureN8nInstalled();
	const instance = await createInstance({ prefix, ...instanceOptions });
	const sandbox = await startTestSandbox();
	const dispose = async () => {
		await instance.dispose();
		await sandbox.close();
	};
	try {
		await instance.cli.importCredentials([
			...credentials.map(webhookSecretCredential),
			...otherCredentials(sandbox),
		]);
		await instance.cli.importWorkflows(workflows.map(webhookTriggerWorkflow));
		for (const workflow of workflows) await instance.cli.publishWorkflow(workflow.id);
		await instance.start();
		const rest = new N8nRest(instance.url);
		await rest.ensureOwner();
		const api = new N8nPublicApi(
			instance.url,
			await rest.createApiKey(`e2e-webhook-${Date.now()}`),
		);
		const productionUrl = (webhookId) => `${instance.url}${productionPath(webhookId)}`;
		return { instance, sandbox, rest, api, productionUrl, dispose };
	} catch (error) {
		await dispose();
		throw error;
	}
}

/** Registers an endpoint in the sandbox (as in the provider's portal); returns its record with `id`. */
async function registerEndpoint(sandbox, { url, secret, headers = 'svix' }) {
	return sandboxControl(sandbox, 'POST', '/webhooks', { url, secret, headers });
}

/** The webhook trigger's output items of an execution. */
const webhookTriggerItems = (execution) =>
	execution.data.resultData.runData[WEBHOOK_TRIGGER_NAME][0].data.main[0].map((item) => item.json);

module.exports = {
	WEBHOOK_TRIGGER_NAME,
	newSigningSecret,
	webhookSecretCredential,
	webhookTriggerWorkflow,
	productionPath,
	startPublishedWebhookTriggers,
	registerEndpoint,
	webhookTriggerItems,
};
