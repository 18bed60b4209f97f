import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { resolveCompanyId } from '../shared/company';
import { readConnection } from '../shared/connection';
import { credentialTests } from '../shared/credentialTest';
import { TRIGGER_RATE_LIMIT_ADVICE, asNodeError, failureError } from '../shared/errors';
import {
	authenticationField,
	companyIdField,
	ACCESS_TOKEN_CHOICE, OAUTH2_CHOICE,
} from '../shared/descriptions';
import { newDocumentWatcher } from './events/newDocument';
import { payrollCompletedWatcher } from './events/payrollCompleted';
import {
	endOutage,
	endPoll,
	isCurrentPoll,
	registerActivation,
	reportsFailure,
	startPoll,
} from './helpers/activeTriggers';
import { PollBudget } from './helpers/pollBudget';
import { readTriggerState, storeEventState } from './helpers/stateStore';

type TriggerEvent = 'newDocument' | 'payrollCompleted';

const showFor = (event: TriggerEvent) => ({ show: { event: [event] } });

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
			{ name: 'partnerPayrollApi', testedBy: 'partnerPayrollTokenTest', ...ACCESS_TOKEN_CHOICE },
			{ name: 'partnerPayrollOAuth2Api', testedBy: 'partnerPayrollTokenTest', ...OAUTH2_CHOICE },
		],
		properties: [
			authenticationField,
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'New Document',
						value: 'newDocument',
						description:
							'A UK income tax or auto-enrolment document that was not listed before (UK companies)',
					},
					{
						name: 'Payroll Completed',
						value: 'payrollCompleted',
						description: "A watched month's payroll status switched to completed",
					},
				],
				default: 'payrollCompleted',
			},
			companyIdField,
			{
				displayName: 'Months',
				name: 'months',
				type: 'options',
				displayOptions: showFor('payrollCompleted'),
				options: [
					{
						name: 'Current and Previous Month',
						value: 'both',
						description: 'The current and the previous month, in the workflow time zone',
					},
					{
						name: 'Current Month',
						value: 'current',
						description: 'The current month, in the workflow time zone',
					},
					{
						name: 'Previous Month',
						value: 'previous',
						description: 'The previous month, in the workflow time zone',
					},
					{
						name: 'Specific Months',
						value: 'specific',
						description: 'The months typed below',
					},
				],
				default: 'both',
				description:
					'Months whose payroll is watched. A month that the calendar leaves behind before it completes stays watched until it does.',
			},
			{
				displayName: 'Specific Months',
				name: 'specificMonths',
				type: 'string',
				required: true,
				default: '',
				placeholder: '202611, 202612',
				displayOptions: { show: { event: ['payrollCompleted'], months: ['specific'] } },
				description: 'Months as YYYYMM, separated by commas',
			},
			{
				displayName: 'Document Types',
				name: 'documentTypes',
				type: 'multiOptions',
				displayOptions: showFor('newDocument'),
				options: [
					{
						name: 'Auto-Enrolment Letters',
						value: 'autoEnrolment',
						description: 'Needs the scope pension:read',
					},
					{
						name: 'Income Tax Documents',
						value: 'incomeTax',
						description: 'P60, P45 and P11D; needs the scope contracts:payslips:read',
					},
				],
				default: ['autoEnrolment', 'incomeTax'],
				description: 'Listings to watch, one request each per poll',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				displayOptions: showFor('payrollCompleted'),
				options: [
					{
						displayName: 'Fire for Months Already Completed When Watching Starts',
						name: 'fireForAlreadyCompleted',
						type: 'boolean',
						default: false,
						description:
							'Whether to fire for months that are already completed when the trigger starts watching them (first activation, newly selected months), instead of only recording them',
					},
					{
						displayName: 'First Completion Only',
						name: 'firstCompletionOnly',
						type: 'boolean',
						default: false,
						description:
							"Whether to fire only for a month's first completion. Off: every new executionEndDate of a completed month (the payroll run again, or reopened and completed again) fires once more, with isRerun true.",
					},
				],
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				displayOptions: showFor('newDocument'),
				options: [
					{
						displayName: 'Attach PDF',
						name: 'attachPdf',
						type: 'boolean',
						default: false,
						description:
							"Whether to download each new document's PDF into its item as a binary file",
					},
					{
						displayName: 'Fire for Documents Already Listed When Watching Starts',
						name: 'fireForExisting',
						type: 'boolean',
						default: false,
						description:
							'Whether to fire for the documents already listed when the trigger starts watching, instead of only recording them',
					},
					{
						displayName: 'Put Output File in Field',
						name: 'binaryPropertyName',
						type: 'string',
						default: 'data',
						// Relative to this collection: only with Attach PDF on.
						displayOptions: { show: { attachPdf: [true] } },
						hint: 'The name of the output binary field to put each PDF in (with Attach PDF)',
					},
				],
			},
		],
	};

	methods = { credentialTest: credentialTests };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const event = this.getNodeParameter('event', 'payrollCompleted') as TriggerEvent;
		// Parameters are checked before any request.
		const watcher =
			event === 'newDocument' ? newDocumentWatcher(this) : payrollCompletedWatcher(this);
		const companyIdParameter = String(this.getNodeParameter('companyId', '') ?? '');
		const budget = new PollBudget(this.getNode());
		const connect = async () =>
			// Every request of the poll, the token lookup included, stops at the poll's deadline.
			await readConnection(this, {
				rateLimitAdvice: TRIGGER_RATE_LIMIT_ADVICE,
				deadline: budget.deadline,
			});

		if (this.getMode() === 'manual') {
			// "Fetch Test Event": a real sample; the stored state is neither read nor written.
			const connection = await connect();
			const companyId = await resolveCompanyId(this, connection, companyIdParameter);
			const sample = await watcher.sample(connection, companyId, budget);
			if (!sample.length) {
				throw failureError(
					this.getNode(),
					event === 'newDocument' ? 'noDocumentSample' : 'noPayrollSample',
				);
			}
			return [sample];
		}

		const trigger = `${this.getWorkflow().id ?? ''}:${this.getNode().id}`;
		const store = this.getWorkflowStaticData('global');
		// Before the first await: an older activation's poll that ends later drops its result.
		registerActivation(trigger, store);
		const ticket = startPoll(trigger, store, (ageMs) =>
			this.logger.warn(
				`Partner Payroll Trigger: the previous poll started ${Math.round(ageMs / 1000)} s ago and never ended; it is given up`,
			),
		);
		if (!ticket) {
			this.logger.debug('Partner Payroll Trigger: the previous poll is still running, skipping');
			return null;
		}
		try {
			const connection = await connect();
			// At most one introspection per poll, when Company ID is empty.
			const companyId = await resolveCompanyId(this, connection, companyIdParameter);
			const state = readTriggerState(this);
			const result = await watcher.check(connection, companyId, state[event], budget);
			if (!isCurrentPoll(trigger, ticket)) {
				this.logger.debug(
					'Partner Payroll Trigger: a newer poll or activation runs, dropping this poll',
				);
				return null;
			}
			// What answered is stored even when the poll stopped part-way; the rest waits for the next
			// poll. The other event's state stays (both are bounded): switching back repeats nothing.
			if (JSON.stringify(state[event]) !== JSON.stringify(result.state)) {
				storeEventState(this, event, result.state);
			}
			if (result.stopped) {
				this.logger.warn(
					`Partner Payroll Trigger: the poll stopped part-way (${result.stopped.message}); the months that did not answer are checked at the next poll`,
				);
			} else {
				endOutage(trigger);
			}
			return result.items.length ? [result.items] : null;
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
			endPoll(trigger, ticket);
		}
	}
}
