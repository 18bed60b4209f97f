import {
	NodeConnectionTypes,
	type ICredentialsDecrypted,
	type ICredentialTestFunctions,
	type IHookFunctions,
	type INodeCredentialTestResult,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { credentialTests } from '../shared/credentialTest';
import { acknowledge, refuse } from './helpers/answers';
import {
	MATCH_PARTNER_COMPANIES,
	companyHeld,
	holdCompany,
	integrationOutcome,
	labelOf,
	laterHealth,
	readHealth,
	readPartnerList,
	type HealthOutcome,
	type PartnerList,
} from './helpers/companyHealth';
import { claim, decide, processMemory, readRecord, storable } from './helpers/deliveries';
import { readEvent, type ServiceEvent } from './helpers/events';
import { filteredOut, readEventFilter } from './helpers/filters';
import { connectionItem, webhookItem } from './helpers/items';
import { rawRequestBody } from './helpers/requestBody';
import { DEFAULT_TOLERANCE_SECONDS, verifySignature } from './helpers/signature';
import { signingKeys } from './helpers/signingSecrets';
import { writeUntilAnswered } from './helpers/staticDataSave';
import { webhookTriggerProperties } from './description';

const LOG_PREFIX = 'Partner Payroll Webhook Trigger:';

/** The endpoint is registered by hand in the provider's webhook portal: n8n has nothing to create. */
function logWhereToPasteUrl(context: IHookFunctions): boolean {
	context.logger.info(
		`${LOG_PREFIX} paste ${context.getNodeWebhookUrl('default') ?? "this node's Production URL"} in the provider's webhook portal (Add Endpoint) and the endpoint's signing secret in the credential; the service has no API to register it`,
	);
	return true;
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

	webhookMethods = {
		default: {
			// True: n8n then never calls create; the log line says what to do by hand.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return logWhereToPasteUrl(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return logWhereToPasteUrl(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				this.logger.info(
					`${LOG_PREFIX} the workflow no longer listens; remove or disable the endpoint in the provider's webhook portal if it should stop sending (Svix disables an endpoint after 5 days of failures)`,
				);
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// Parameters and credential first: a misconfigured node fails every delivery the same way.
		const filter = readEventFilter(this);
		const fireOnRerun = this.getNodeParameter('options.fireOnRerun', false) as boolean;
		const toleranceSeconds = Number(
			this.getNodeParameter('options.toleranceSeconds', DEFAULT_TOLERANCE_SECONDS),
		);
		const secrets = signingKeys(await this.getCredentials('partnerPayrollWebhookApi'));
		if ('problem' in secrets) {
			this.logger.error(`${LOG_PREFIX} refused a delivery (401): ${secrets.problem}`);
			return refuse(this, 'badSignature', 'The signing secret of this trigger is not usable');
		}

		const body = await rawRequestBody(this);
		const verification = verifySignature(this.getHeaderData(), body, secrets.keys, {
			toleranceSeconds,
			nowSeconds: Math.floor(Date.now() / 1000),
		});
		if (!verification.verified) {
			this.logger.warn(`${LOG_PREFIX} refused a delivery (401): ${verification.reason}`);
			return refuse(this, 'badSignature', 'The signature could not be verified');
		}
		const { messageId } = verification;

		const read = readEvent(body, this.getNode());
		if ('problem' in read) {
			return refuse(this, 'unreadableBody', `Message ${messageId} was refused: ${read.problem}`);
		}
		if ('unknownType' in read) {
			return acknowledge(this, `Event type ${read.unknownType} is not handled; nothing started`);
		}
		const { event } = read;
		const why = filteredOut(event, filter);
		if (why) return acknowledge(this, `Filtered out: ${why}; nothing started`);

		const partnerList = await readPartnerList(this);
		const itemOf = (outcome: HealthOutcome | undefined, isRerun: boolean) =>
			eventItem(event, messageId, isRerun, partnerList, outcome);

		// The Test URL: every verified event shows, and the record is neither read nor written.
		if (this.getMode() === 'manual') {
			const outcome =
				partnerList && event.month === undefined
					? integrationOutcome(event, partnerList, {}, true)
					: undefined;
			if (outcome?.kind === 'nothing') return acknowledge(this, `${outcome.why}; nothing started`);
			return { workflowData: [[itemOf(outcome, false)]] };
		}

		// From here to the return, nothing awaits: the decision and the claim are one step for
		// every other request of this process.
		// Under the node's id, not its name (n8n keys a node's own static data by name): a rename
		// keeps the record.
		const staticData = this.getWorkflowStaticData('global');
		const recordKey = `partnerPayrollWebhookTrigger:${this.getNode().id}`;
		const stored = readRecord(staticData[recordKey]);
		const memory = processMemory(`${this.getWorkflow().id ?? ''}:${this.getNode().id}`);
		const delivery = { stored, memory, event, messageId };
		const decision = decide({ ...delivery, fireOnRerun }, Date.now());
		if (decision.kind === 'duplicate') {
			return acknowledge(this, `Duplicate: ${decision.why}; nothing started`);
		}
		if (decision.kind === 'inFlight') {
			return refuse(this, 'inFlight', `Retry later: ${decision.why}`);
		}
		const health =
			partnerList && laterHealth(readHealth(staticData[recordKey]), memory.health.known);
		let outcome: HealthOutcome | undefined;
		if (partnerList && health && event.month === undefined) {
			if (companyHeld(memory.health, event.companyId, Date.now())) {
				return refuse(
					this,
					'inFlight',
					`Retry later: another connection change of company ${event.companyId} is still being handed to n8n`,
				);
			}
			outcome = integrationOutcome(event, partnerList, health);
			if (outcome.kind === 'nothing') return acknowledge(this, `${outcome.why}; nothing started`);
		}
		const change = outcome?.kind === 'emit' ? outcome.change : undefined;
		const { toStore, settle } = claim(delivery, Date.now());
		const release = change ? holdCompany(memory.health, change, Date.now()) : undefined;
		const response = this.getResponseObject();
		let answered = false;
		// n8n answers once the execution exists and static data is saved (or sends an error status).
		response.once('finish', () => {
			answered = true;
			settle(response.statusCode < 300);
			release?.(response.statusCode < 300);
		});
		response.once('close', () => {
			answered = true;
			settle(false);
			release?.(false);
		});
		// Every save writes the health too (a concurrent save of another delivery would drop it).
		const record = health
			? { ...storable(toStore), health: change ? laterHealth(health, change) : health }
			: storable(toStore);
		writeUntilAnswered(staticData, recordKey, record, () => answered);
		return { workflowData: [[itemOf(outcome, decision.isRerun)]] };
	}
}

/**
 * The item of a delivery: the event's (with the company's label when a Partner API credential is
 * linked), or the connection change an integration event made.
 */
function eventItem(
	event: ServiceEvent,
	messageId: string,
	isRerun: boolean,
	partnerList: PartnerList | undefined,
	outcome: HealthOutcome | undefined,
): INodeExecutionData {
	if (outcome?.kind === 'emit') return connectionItem(outcome.item, event, messageId);
	const label = partnerList && labelOf(partnerList, event.companyId);
	return webhookItem(event, { messageId, isRerun }, label);
}
