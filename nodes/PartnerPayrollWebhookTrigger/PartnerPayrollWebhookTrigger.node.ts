import {
	NodeConnectionTypes,
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type ICredentialsDecrypted,
	type ICredentialTestFunctions,
	type IHookFunctions,
	type INodeCredentialTestResult,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { credentialTests } from '../shared/credentialTest';
import { manualWebhookMethods } from '../shared/manualWebhookMethods';
import { LOG_PREFIX, acknowledge, refuse } from './helpers/responses';
import { MATCH_PARTNER_COMPANIES, readPartnerList } from './helpers/companyHealth';
import { readCredentialShared } from './helpers/credentialReads';
import { readEvent } from './helpers/events';
import { filteredOut, readEventFilter } from './helpers/filters';
import {
	handOver,
	testDelivery,
	type Answered,
	type VerifiedDelivery,
	type WebhookSetup,
} from './helpers/handOver';
import { rawRequestBody } from './helpers/requestBody';
import { answerKnownCopy, rememberVerifyingKeys, toleranceOf } from './helpers/knownCopy';
import { verifySignature } from './helpers/signature';
import { signingKeys } from './helpers/signingSecrets';
import { webhookTriggerProperties } from './description';

/**
 * At publish (and Listen for Test Event): parameters or a signing secret that would fail every
 * delivery refuse it, naming the field. The endpoint is registered by hand in the provider's webhook
 * portal: n8n has nothing to create, the log says where to paste the URL.
 */
async function checkSetupAndLogWhereToPasteUrl(context: IHookFunctions): Promise<void> {
	const setup = await setupOf(context, () => context.getCredentials('partnerPayrollWebhookApi'));
	if ('problem' in setup) {
		throw new NodeOperationError(
			context.getNode(),
			`The Partner Payroll Webhook Signing Secret credential is not usable: ${setup.problem}`,
		);
	}
	context.logger.info(
		`${LOG_PREFIX} paste ${context.getNodeWebhookUrl('default') ?? "this node's Production URL"} in the provider's webhook portal (Add Endpoint) and the endpoint's signing secret in the credential; the service has no API to register it`,
	);
}

function logEndpointStillSends(context: IHookFunctions): void {
	context.logger.info(
		`${LOG_PREFIX} the workflow no longer listens; remove or disable the endpoint in the provider's webhook portal if it should stop sending (Svix disables an endpoint after 5 days of failures)`,
	);
}

export class PartnerPayrollWebhookTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Partner Payroll Webhook Trigger',
		name: 'partnerPayrollWebhookTrigger',
		icon: {
			light: 'file:../../icons/partnerPayroll.svg',
			dark: 'file:../../icons/partnerPayroll.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description:
			'Starts the workflow when the service sends a partner webhook (payroll run, integration activated or deactivated), signature checked, once per event',
		defaults: { name: 'Partner Payroll Webhook Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'partnerPayrollWebhookApi',
				required: true,
				testedBy: 'partnerPayrollWebhookSecretsShape',
			},
			{
				name: 'partnerPayrollPartnerApi',
				required: true,
				testedBy: 'partnerPayrollCompaniesTest',
				displayOptions: { show: { [MATCH_PARTNER_COMPANIES]: [true] } },
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Empty: n8n then reads the answer's body from webhook()'s result, after it created the
				// execution (startAndRecord).
				responseData: '',
				path: 'webhook',
			},
		],
		properties: webhookTriggerProperties,
	};

	methods = {
		credentialTest: {
			...credentialTests,
			/** Offline: nothing can check a signing secret but a signed delivery. */
			async partnerPayrollWebhookSecretsShape(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const keys = signingKeys(credential.data ?? {});
				return 'problem' in keys
					? { status: 'Error', message: keys.problem }
					: {
							status: 'OK',
							message: `${keys.keys.length === 1 ? 'The secret has' : `The ${keys.keys.length} secrets have`} the expected shape (whsec_ and a base64 key); whether it is the endpoint's shows on the first delivery`,
						};
			},
		},
	};

	webhookMethods = manualWebhookMethods(checkSetupAndLogWhereToPasteUrl, logEndpointStillSends);

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// n8n quirk Q20: docs/n8n-quirks.md
		const copy = this.getMode() === 'manual' ? undefined : await answerKnownCopy(this);
		if (copy) return copy;
		// Parameters and credential first: a misconfigured node fails every delivery the same way.
		const setup = await readSetup(this);
		if ('answer' in setup) return setup.answer;
		const delivery = await verifiedDelivery(this, setup);
		if ('answer' in delivery) return delivery.answer;
		if (this.getMode() === 'manual') return testDelivery(this, delivery);
		return handOver(this, setup, delivery);
	}
}

/**
 * What every delivery is checked with, as at publish: the parameters (a throw names the field),
 * then the signing secret's keys, or why the secret is not usable.
 */
async function setupOf(
	context: IWebhookFunctions | IHookFunctions,
	readSigningSecret: () => Promise<ICredentialDataDecryptedObject>,
): Promise<WebhookSetup | { problem: string }> {
	const filter = readEventFilter(context);
	const fireOnRerun = context.getNodeParameter('options.fireOnRerun', false) as boolean;
	const toleranceSeconds = toleranceOf(context);
	const secrets = signingKeys(await readSigningSecret());
	if ('problem' in secrets) return secrets;
	return { filter, fireOnRerun, toleranceSeconds, keys: secrets.keys };
}

async function readSetup(context: IWebhookFunctions): Promise<WebhookSetup | Answered> {
	const setup = await setupOf(context, () =>
		readCredentialShared(context, 'partnerPayrollWebhookApi'),
	);
	if ('problem' in setup) {
		context.logger.error(`${LOG_PREFIX} refused a delivery (401): ${setup.problem}`);
		return {
			answer: refuse(context, 'badSignature', 'The signing secret of this trigger is not usable'),
		};
	}
	return setup;
}

/** The delivery's signature, body, event type and the filters; then the linked company list. */
async function verifiedDelivery(
	context: IWebhookFunctions,
	setup: WebhookSetup,
): Promise<VerifiedDelivery | Answered> {
	const body = await rawRequestBody(context);
	const verification = verifySignature(context.getHeaderData(), body, setup.keys, {
		toleranceSeconds: setup.toleranceSeconds,
		nowSeconds: Math.floor(Date.now() / 1000),
	});
	if (!verification.verified) {
		context.logger.warn(`${LOG_PREFIX} refused a delivery (401): ${verification.reason}`);
		return { answer: refuse(context, 'badSignature', 'The signature could not be verified') };
	}
	const { messageId } = verification;
	rememberVerifyingKeys(context, setup.keys);

	const read = readEvent(body, context.getNode());
	if ('problem' in read) {
		// The sender never retries a 400 with abort-message: the log is where the user finds out.
		context.logger.warn(
			`${LOG_PREFIX} refused message ${messageId} (400, not retried by the sender): ${read.problem}`,
		);
		return {
			answer: refuse(
				context,
				'unreadableBody',
				`Message ${messageId} was refused: ${read.problem}`,
			),
		};
	}
	if ('unknownType' in read) {
		return {
			answer: acknowledge(
				context,
				`Event type ${read.unknownType} is not handled; nothing started`,
			),
		};
	}
	const { event } = read;
	const why = filteredOut(event, setup.filter);
	if (why) return { answer: acknowledge(context, `Filtered out: ${why}; nothing started`) };
	return { event, messageId, partnerList: await readPartnerList(context) };
}
