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
import {
	RUNS_FIELD,
	adoptStoredRuns,
	holdRun,
	releaseRun,
	startRun,
	storableRuns,
} from '../shared/runClaims';
import { manualWebhookMethods } from '../shared/manualWebhookMethods';
import { acknowledge, refuse } from './helpers/responses';
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
import { filteredOut, readEventFilter, type EventFilter } from './helpers/filters';
import { connectionItem, webhookItem } from './helpers/webhookItems';
import { rawRequestBody } from './helpers/requestBody';
import { DEFAULT_TOLERANCE_SECONDS, verifySignature } from './helpers/signature';
import { signingKeys } from './helpers/signingSecrets';
import { settleWhenAnswered } from './helpers/answerEvents';
import { startAndRecord } from './helpers/staticDataSave';
import { webhookTriggerProperties } from './description';

const LOG_PREFIX = 'Partner Payroll Webhook Trigger:';

/** The endpoint is registered by hand in the provider's webhook portal: n8n has nothing to create. */
function logWhereToPasteUrl(context: IHookFunctions): void {
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

	webhookMethods = manualWebhookMethods(logWhereToPasteUrl, logEndpointStillSends);

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// Parameters and credential first: a misconfigured node fails every delivery the same way.
		const setup = await readSetup(this);
		if ('answer' in setup) return setup.answer;
		const delivery = await verifiedDelivery(this, setup);
		if ('answer' in delivery) return delivery.answer;
		if (this.getMode() === 'manual') return testDelivery(this, delivery);
		return handOver(this, setup, delivery);
	}
}

/** What every delivery is checked with: the parameters and the credential's signing keys. */
interface WebhookSetup {
	filter: EventFilter;
	fireOnRerun: boolean;
	toleranceSeconds: number;
	keys: Buffer[];
}

/** A delivery whose signature was verified, of an event that passed the filters. */
interface VerifiedDelivery {
	event: ServiceEvent;
	messageId: string;
	/** The linked Partner API credential's companies, or undefined when none is linked. */
	partnerList: PartnerList | undefined;
}

/** Answered already: what the sender gets, and nothing starts. */
type Answered = { answer: IWebhookResponseData };

async function readSetup(context: IWebhookFunctions): Promise<WebhookSetup | Answered> {
	const filter = readEventFilter(context);
	const fireOnRerun = context.getNodeParameter('options.fireOnRerun', false) as boolean;
	const toleranceSeconds = Number(
		context.getNodeParameter('options.toleranceSeconds', DEFAULT_TOLERANCE_SECONDS),
	);
	const secrets = signingKeys(await context.getCredentials('partnerPayrollWebhookApi'));
	if ('problem' in secrets) {
		context.logger.error(`${LOG_PREFIX} refused a delivery (401): ${secrets.problem}`);
		return {
			answer: refuse(context, 'badSignature', 'The signing secret of this trigger is not usable'),
		};
	}
	return { filter, fireOnRerun, toleranceSeconds, keys: secrets.keys };
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

	const read = readEvent(body, context.getNode());
	if ('problem' in read) {
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

/** The Test URL: every verified event shows, and the record is neither read nor written. */
function testDelivery(
	context: IWebhookFunctions,
	delivery: VerifiedDelivery,
): IWebhookResponseData {
	const { event, partnerList } = delivery;
	const outcome =
		partnerList && event.month === undefined
			? integrationOutcome(event, partnerList, {}, true)
			: undefined;
	if (outcome?.kind === 'nothing') return acknowledge(context, `${outcome.why}; nothing started`);
	return { workflowData: [[eventItem(delivery, false, outcome)]] };
}

/**
 * The Production URL: a duplicate or a delivery in flight is answered; otherwise the delivery is
 * claimed, and its record (with the companies' connection health) written when n8n, having created
 * the execution, reads the answer.
 */
function handOver(
	context: IWebhookFunctions,
	setup: WebhookSetup,
	delivery: VerifiedDelivery,
): IWebhookResponseData {
	// From here to the return, nothing awaits: the decision and the claim are one step for
	// every other request of this process.
	// Under the node's id, not its name (n8n keys a node's own static data by name): a rename
	// keeps the record.
	const staticData = context.getWorkflowStaticData('global');
	// n8n quirk Q3: docs/n8n-quirks.md
	const recordKey = `partnerPayrollWebhookTrigger:${context.getNode().id}`;
	const { event, messageId, partnerList } = delivery;
	const stored = readRecord(staticData[recordKey]);
	const memory = processMemory(`${context.getWorkflow().id ?? ''}:${context.getNode().id}`);
	const claimed = { stored, memory, event, messageId };
	const decision = decide({ ...claimed, fireOnRerun: setup.fireOnRerun }, Date.now());
	if (decision.kind === 'duplicate') {
		return acknowledge(context, `Duplicate: ${decision.why}; nothing started`);
	}
	if (decision.kind === 'inFlight') {
		return refuse(context, 'inFlight', `Retry later: ${decision.why}`);
	}
	const health = partnerList && laterHealth(readHealth(staticData[recordKey]), memory.health.known);
	let outcome: HealthOutcome | undefined;
	if (partnerList && health && event.month === undefined) {
		if (companyHeld(memory.health, event.companyId, Date.now())) {
			return refuse(
				context,
				'inFlight',
				`Retry later: another connection change of company ${event.companyId} is still being handed to n8n`,
			);
		}
		outcome = integrationOutcome(event, partnerList, health);
		if (outcome.kind === 'nothing') return acknowledge(context, `${outcome.why}; nothing started`);
	}
	const item = eventItem(delivery, decision.isRerun, outcome);
	// The run, claimed for both triggers of the workflow: the polling trigger may have started it.
	const workflowId = context.getWorkflow().id ?? '';
	const runKey = String(item.json.dedupeKey);
	adoptStoredRuns(workflowId, staticData[RUNS_FIELD]);
	if (!holdRun(workflowId, runKey, Date.now())) {
		return acknowledge(
			context,
			`Duplicate: ${runKey} was already started, or is being started, by another Partner Payroll trigger of this workflow; nothing started`,
		);
	}
	const change = outcome?.kind === 'emit' ? outcome.change : undefined;
	const { toStore, settle } = claim(claimed, Date.now());
	const release = change ? holdCompany(memory.health, change, Date.now()) : undefined;
	settleWhenAnswered(context, (handedOver) => {
		settle(handedOver);
		release?.(handedOver);
		if (!handedOver) releaseRun(workflowId, runKey);
	});
	// Every save writes the health too (a concurrent save of another delivery would drop it).
	const record = health
		? { ...storable(toStore), health: change ? laterHealth(health, change) : health }
		: storable(toStore);
	const answerBody = {
		message: `Workflow started for message ${messageId} (${event.event}, company ${event.companyId})`,
	};
	// Read by n8n once the execution exists: the run is started, and stored with the delivery's record.
	const records = () => {
		startRun(workflowId, runKey, Date.now());
		return { [recordKey]: record, [RUNS_FIELD]: storableRuns(workflowId) };
	};
	return startAndRecord([[item]], staticData, records, answerBody);
}

/**
 * The item of a delivery: the event's (with the company's label when a Partner API credential is
 * linked), or the connection change an integration event made.
 */
function eventItem(
	delivery: VerifiedDelivery,
	isRerun: boolean,
	outcome: HealthOutcome | undefined,
): INodeExecutionData {
	const { event, messageId, partnerList } = delivery;
	if (outcome?.kind === 'emit') return connectionItem(outcome.item, event, messageId);
	const label = partnerList && labelOf(partnerList, event.companyId);
	return webhookItem(event, { messageId, isRerun }, label);
}
