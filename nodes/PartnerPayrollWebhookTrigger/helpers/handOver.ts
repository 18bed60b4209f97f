import type { INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import {
	RUNS_FIELD,
	adoptStoredRuns,
	holdRun,
	isRunStarted,
	releaseRun,
	runKeyOf,
	startRun,
	storableRuns,
} from '../../shared/runClaims';
import { settleWhenAnswered } from './answerEvents';
import {
	companyHeld,
	holdCompany,
	integrationOutcome,
	labelOf,
	laterHealth,
	readHealth,
	type HealthOutcome,
	type PartnerList,
} from './companyHealth';
import { claim, decide, memoryOf, readRecord, recordKeyOf, storable } from './deliveries';
import type { ServiceEvent } from './events';
import type { EventFilter } from './filters';
import { LOG_PREFIX, acknowledge, refuse } from './responses';
import { startAndRecord } from './staticDataSave';
import { connectionItem, webhookItem } from './webhookItems';

// A verified delivery handed to n8n: the Test URL's item, or the Production URL's claim of the
// delivery and of its run, and the record written as n8n answers.

/** What every delivery is checked with: the parameters and the credential's signing keys. */
export interface WebhookSetup {
	filter: EventFilter;
	fireOnRerun: boolean;
	toleranceSeconds: number;
	keys: Buffer[];
}

/** A delivery whose signature was verified, of an event that passed the filters. */
export interface VerifiedDelivery {
	event: ServiceEvent;
	messageId: string;
	/** The linked Partner API credential's companies, or undefined when none is linked. */
	partnerList: PartnerList | undefined;
}

/** Answered already: what the sender gets, and nothing starts. */
export type Answered = { answer: IWebhookResponseData };

/** The Test URL: every verified event shows, and the record is neither read nor written. */
export function testDelivery(
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
export function handOver(
	context: IWebhookFunctions,
	setup: WebhookSetup,
	delivery: VerifiedDelivery,
): IWebhookResponseData {
	// From here to the return, nothing awaits: the decision and the claim are one step for
	// every other request of this process.
	const staticData = context.getWorkflowStaticData('global');
	const recordKey = recordKeyOf(context);
	const { event, messageId, partnerList } = delivery;
	// A run of a company the linked credential cannot serve yet would fail the workflow's nodes and be
	// lost: the sender retries it, and it starts once the company is connected.
	const unserved = partnerList && event.month !== undefined && unservedCompany(partnerList, event);
	if (unserved) {
		context.logger.warn(`${LOG_PREFIX} ${unserved}; the service retries the delivery`);
		return refuse(context, 'notConnected', `Retry later: ${unserved}`);
	}
	const stored = readRecord(staticData[recordKey]);
	const memory = memoryOf(context);
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
	const runKey = runKeyOf(item.json) ?? messageId;
	adoptStoredRuns(workflowId, staticData[RUNS_FIELD]);
	if (!holdRun(workflowId, runKey)) {
		if (!isRunStarted(workflowId, runKey)) {
			// Its hand-over has no outcome yet: the sender retries, and a retry after the outcome is answered by it.
			return refuse(context, 'inFlight', `Retry later: ${runKey} is still being handed to n8n`);
		}
		return acknowledge(
			context,
			`Duplicate: ${runKey} was already started by a Partner Payroll trigger of this workflow; nothing started`,
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
		startRun(workflowId, runKey);
		return { [recordKey]: record, [RUNS_FIELD]: storableRuns(workflowId) };
	};
	return startAndRecord([[item]], staticData, records, answerBody);
}

/** Why the linked credential cannot serve the company of a run, or undefined when it can. */
function unservedCompany(list: PartnerList, event: ServiceEvent): string | undefined {
	const company = list.get(event.companyId);
	if (!company) {
		return `company ${event.companyId} is not in the Partner API credential yet (connect it with the connect link)`;
	}
	return company.problem === undefined
		? undefined
		: `the row of company ${event.companyId} (${company.label}) cannot serve requests: ${company.problem}`;
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
