import {
	NodeConnectionTypes,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { resolveCompanyId } from '../shared/company';
import { readConnection } from '../shared/connection';
import { TRIGGER_RATE_LIMIT_ADVICE, failureError } from '../shared/errors';
import {
	authenticationField,
	companyIdField,
	credentialsByAuthentication,
} from '../shared/descriptions';
import { newDocumentWatcher } from './events/newDocument';
import { payrollCompletedWatcher } from './events/payrollCompleted';
import { PollBudget } from './helpers/pollBudget';

type TriggerEvent = 'newDocument' | 'payrollCompleted';

const showFor = (event: TriggerEvent) => ({ show: { event: [event] } });

// Static data of the active triggers whose poll still waits for the API. n8n starts a scheduled
// poll even while the previous one is retrying; the later one would fire the same transitions.
const pollsInFlight = new WeakSet<object>();

// The static data object of the newest activation of each workflow + node (its generation). n8n
// (ActiveWorkflowManager.add) builds a new Workflow, so a new static data object, from the database
// at every activation: publish, reactivation, restart. Removing the old activation only stops its
// cron; a poll of it that is still waiting for the API goes on. When it ends after the newer
// activation polled, it drops its result: the newer one started from the stored state and fires the
// same transitions itself. Object identity needs no counter in the stored state and no clock.
const latestActivation = new Map<string, object>();

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
		credentials: credentialsByAuthentication,
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
						displayName: 'Fire Again on Re-Run',
						name: 'fireOnRerun',
						type: 'boolean',
						default: false,
						description:
							"Whether to fire again when a completed month's executionEndDate changes while it stays completed (payroll run again). A month reopened and then completed again always fires.",
					},
					{
						displayName: 'Fire for Months Already Completed When Watching Starts',
						name: 'fireForAlreadyCompleted',
						type: 'boolean',
						default: false,
						description:
							'Whether to fire for months that are already completed when the trigger starts watching them (first activation, newly selected months), instead of only recording them',
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

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const event = this.getNodeParameter('event', 'payrollCompleted') as TriggerEvent;
		// Parameters are checked before any request.
		const watcher =
			event === 'newDocument' ? newDocumentWatcher(this) : payrollCompletedWatcher(this);
		const companyIdParameter = String(this.getNodeParameter('companyId', '') ?? '');

		const budget = new PollBudget(this.getNode());
		// Every request of the poll, the token lookup included, stops at the poll's deadline.
		const connection = await readConnection(this, {
			rateLimitAdvice: TRIGGER_RATE_LIMIT_ADVICE,
			deadline: budget.deadline,
		});

		if (this.getMode() === 'manual') {
			// "Fetch Test Event": a real sample; the stored state is neither read nor written.
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

		const staticData = this.getWorkflowStaticData('node');
		const activationKey = `${this.getWorkflow().id ?? ''}:${this.getNode().id}`;
		latestActivation.set(activationKey, staticData);
		if (pollsInFlight.has(staticData)) {
			this.logger.debug('Partner Payroll Trigger: the previous poll is still running, skipping');
			return null;
		}
		pollsInFlight.add(staticData);
		try {
			// At most one introspection per poll, when Company ID is empty.
			const companyId = await resolveCompanyId(this, connection, companyIdParameter);
			const { state, items } = await watcher.check(
				connection,
				companyId,
				staticData[event],
				budget,
			);
			if (latestActivation.get(activationKey) !== staticData) {
				this.logger.debug(
					'Partner Payroll Trigger: a newer activation polls now, dropping this poll',
				);
				return null;
			}

			// Only reached when every request of the poll succeeded: a failed poll throws above,
			// leaves the state as it was, and the next poll sees the same transitions again. The
			// other event's state stays (both are bounded): switching the event back repeats nothing.
			if (JSON.stringify(staticData[event]) !== JSON.stringify(state)) {
				staticData[event] = state as IDataObject;
			}

			return items.length ? [items] : null;
		} finally {
			pollsInFlight.delete(staticData);
		}
	}
}
