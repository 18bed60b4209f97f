import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { resolveCompanyId } from '../shared/company';
import { readConnection } from '../shared/authentication';
import type { Connection } from '../shared/connection';
import { credentialTests } from '../shared/credentialTest';
import { asNodeError } from '../shared/errors';
import { listPartnerCompanies } from '../shared/partnerCompanyList';
import {
	RUNS_FIELD,
	adoptStoredRuns,
	claimItems,
	keepRunsInPollCopy,
	releasePollHolds,
	storableRuns,
} from '../shared/runClaims';
import { newDocumentEvent } from './events/newDocument';
import { payrollCompletedEvent } from './events/payrollCompleted';
import {
	endOutage,
	endPoll,
	isCurrentPoll,
	registerActivation,
	reportsFailure,
	startPoll,
} from './helpers/activeTriggers';
import { pollPartnerCompanies, samplePartnerCompanies } from './helpers/partnerPoll';
import { everyCompanyFailedError } from './helpers/failedCompanies';
import { watchedCompanies } from './helpers/watchedCompanies';
import { PollBudget } from './helpers/pollBudget';
import { TRIGGER_RATE_LIMIT_ADVICE } from './helpers/requests';
import { readTriggerState, storeEventState } from './helpers/stateStore';
import { withCompanyState } from './helpers/companies';
import { checkCompany, watcherOf, type PollInput } from './events/watcher';
import { triggerProperties, type TriggerEvent } from './description';

export class PartnerPayrollTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Partner Payroll Trigger',
		name: 'partnerPayrollTrigger',
		icon: {
			light: 'file:../../icons/partnerPayroll.svg',
			dark: 'file:../../icons/partnerPayroll.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"] === "newDocument" ? "New document" : "Payroll completed"}}',
		description: 'Starts the workflow when a payroll month is completed or a UK document appears',
		defaults: { name: 'Partner Payroll Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			// Written out, not spread: n8n's lint reads each credential's displayOptions from the node file.
			{
				name: 'partnerPayrollApi',
				testedBy: 'partnerPayrollTokenTest',
				required: true,
				displayOptions: { show: { authentication: ['accessToken'] } },
			},
			{
				name: 'partnerPayrollOAuth2Api',
				testedBy: 'partnerPayrollTokenTest',
				required: true,
				displayOptions: { show: { authentication: ['oAuth2'] } },
			},
			{
				name: 'partnerPayrollPartnerApi',
				testedBy: 'partnerPayrollCompaniesTest',
				required: true,
				displayOptions: { show: { authentication: ['partnerApi'] } },
			},
		],
		properties: triggerProperties,
	};

	methods = { credentialTest: credentialTests, loadOptions: { listPartnerCompanies } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const event = this.getNodeParameter('event', 'payrollCompleted') as TriggerEvent;
		// Parameters are checked before any request.
		const watcher =
			event === 'newDocument'
				? watcherOf(newDocumentEvent, this)
				: watcherOf(payrollCompletedEvent, this);
		const budget = new PollBudget(this.getNode());
		const connect = async () =>
			// Every request of the poll, the token lookup included, stops at the poll's deadline.
			await readConnection(this, {
				rateLimitAdvice: TRIGGER_RATE_LIMIT_ADVICE,
				deadline: budget.deadline,
			});

		if (this.getMode() === 'manual') {
			// "Fetch Test Event": a real sample; the stored state is neither read nor written.
			return [await testEvent(this, { connection: await connect(), watcher, event, budget })];
		}

		const trigger = `${this.getWorkflow().id ?? ''}:${this.getNode().id}`;
		const store = this.getWorkflowStaticData('global');
		// Before the first await: an older activation's poll that ends later drops its result.
		registerActivation(trigger, store);
		const workflowId = this.getWorkflow().id ?? '';
		const ticket = startPoll(trigger, { activation: store, workflowId, budget }, (ageMs) =>
			this.logger.warn(
				`Partner Payroll Trigger: the previous poll started ${Math.round(ageMs / 1000)} s ago and never ended; it is given up`,
			),
		);
		if (!ticket) {
			this.logger.debug('Partner Payroll Trigger: the previous poll is still running, skipping');
			return null;
		}
		// n8n quirk Q23: docs/n8n-quirks.md
		if (isCurrentPoll(trigger, ticket)) keepRunsInPollCopy(workflowId, store);
		const dropsResult = () => {
			if (isCurrentPoll(trigger, ticket)) return false;
			this.logger.debug(
				'Partner Payroll Trigger: a newer poll or activation runs, dropping this poll',
			);
			return true;
		};
		try {
			const connection = await connect();
			const state = readTriggerState(this);
			const input = { connection, watcher, event, stored: state, budget };
			const result = connection.partner
				? await partnerPoll(this, input)
				: await companyPoll(this, input);
			if (dropsResult()) return null;
			// What answered is stored even when the poll stopped part-way; the rest waits for the next
			// poll. The other event's state stays (both are bounded): switching back repeats nothing.
			for (const [key, value] of Object.entries(result.state)) {
				if (JSON.stringify(state[key]) !== JSON.stringify(value)) storeEventState(this, key, value);
			}
			if (result.stopped) this.logger.warn(`Partner Payroll Trigger: ${result.stopped}`);
			else endOutage(trigger);
			const items = claimedRuns(this, store, result.items, budget);
			return items.length ? [items] : null;
		} catch (error) {
			if (!isCurrentPoll(trigger, ticket)) return null;
			// One error execution when the service starts failing, then at most hourly: every poll
			// catches up on what the failed ones missed, so the rest would be noise.
			if (reportsFailure(trigger)) throw asNodeError(this.getNode(), error);
			this.logger.warn(
				`Partner Payroll Trigger: the poll failed again (${(error as Error).message}); the next error execution comes at most an hour after the last one`,
			);
			return null;
		} finally {
			// Runs the poll held but did not return (its result dropped, or it failed) are free again.
			releasePollHolds(workflowId, budget);
			endPoll(trigger, ticket);
		}
	}
}

/**
 * The items whose run no other Partner Payroll trigger of the workflow started (the webhook trigger
 * may have), claimed, the runs `poll` held included; the claims are stored with the poll's state,
 * which n8n saves with these items.
 */
function claimedRuns(
	context: IPollFunctions,
	store: IDataObject,
	found: INodeExecutionData[],
	poll: PollBudget,
): INodeExecutionData[] {
	const workflowId = context.getWorkflow().id ?? '';
	adoptStoredRuns(workflowId, store[RUNS_FIELD]);
	const items = claimItems(workflowId, found, poll);
	if (items.length < found.length) {
		context.logger.debug(
			`Partner Payroll Trigger: ${found.length - items.length} run(s) were already started by another Partner Payroll trigger of this workflow`,
		);
	}
	if (items.length) store[RUNS_FIELD] = storableRuns(workflowId);
	return items;
}

/** What one poll fires and stores (by key of the trigger's state), and why it stopped part-way. */
interface PollOutcome {
	items: INodeExecutionData[];
	state: Record<string, object>;
	stopped?: string;
}

/** The company of a per-company credential: Company ID, or the token's (one introspection). */
async function companyOf(context: IPollFunctions, connection: Connection): Promise<string> {
	const typed = String(context.getNodeParameter('companyId', '') ?? '');
	return await resolveCompanyId(context, connection, typed);
}

/** "Fetch Test Event": real data of the event, or an error that says why there is none. */
async function testEvent(
	context: IPollFunctions,
	input: Omit<PollInput, 'stored'>,
): Promise<INodeExecutionData[]> {
	const { connection, watcher, event, budget } = input;
	const sample = connection.partner
		? await samplePartnerCompanies(context, {
				...input,
				companies: watchedCompanies(context, connection.partner.companies),
			})
		: await watcher.sample({
				context,
				connection,
				companyId: await companyOf(context, connection),
				budget,
			});
	if (!sample.length) {
		throw new NodeOperationError(
			context.getNode(),
			'No data with the current filter could be found',
			{
				description:
					event === 'newDocument'
						? 'The company has no income tax or auto-enrolment documents in the chosen listings yet.'
						: 'None of the watched months is completed yet. Choose Specific Months with a completed month to see a sample.',
			},
		);
	}
	return sample;
}

/** A poll with a per-company credential: one company. */
async function companyPoll(context: IPollFunctions, input: PollInput): Promise<PollOutcome> {
	const { connection, watcher, event, budget } = input;
	// At most one introspection per poll, when Company ID is empty.
	const companyId = await companyOf(context, connection);
	const stored = watcher.readState(input.stored[event]);
	const result = await checkCompany(
		watcher,
		{ context, connection, companyId, budget },
		stored?.companies[companyId],
	);
	return {
		items: result.items,
		state: { [event]: withCompanyState(stored, companyId, result.companyState) },
		stopped: result.stopped
			? `the poll stopped part-way (${result.stopped.message}); the months that did not answer are checked at the next poll`
			: undefined,
	};
}

/** A poll with the Partner API credential: every watched company of its list. */
async function partnerPoll(context: IPollFunctions, input: PollInput): Promise<PollOutcome> {
	const result = await pollPartnerCompanies(context, {
		...input,
		companies: watchedCompanies(context, input.connection.partner?.companies ?? []),
		reportConnectionChanges: context.getNodeParameter('reportConnectionChanges', true) as boolean,
	});
	// Every company failed for a reason other than its connection: an error execution, as for one company.
	if (result.failedAsWhole && result.failed) {
		throw everyCompanyFailedError(context.getNode(), result.failed);
	}
	const stopped = [
		result.notReached
			? `${result.notReached} company(ies) were not reached in the poll's time; they are checked first at the next poll`
			: '',
		result.failed
			? `${result.failed.length} company(ies) failed (${result.failed[0].error.message}); they are checked again at the next poll`
			: '',
	].filter(Boolean);
	return {
		items: result.items,
		state: { [input.event]: result.eventState, partner: result.partnerState },
		stopped: stopped.length ? stopped.join('; ') : undefined,
	};
}
