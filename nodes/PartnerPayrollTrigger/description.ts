import type { INodeProperties } from 'n8n-workflow';

import { authenticationField } from '../shared/authentication';
import { companyIdField } from '../shared/ids';

// The trigger's parameters, in the order the editor shows them.

export type TriggerEvent = 'newDocument' | 'payrollCompleted';

const showFor = (event: TriggerEvent) => ({ show: { event: [event] } });
const forPartnerApi = { show: { authentication: ['partnerApi'] } };
export const triggerProperties: INodeProperties[] = [
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
	{ ...companyIdField, displayOptions: { hide: { authentication: ['partnerApi'] } } },
	{
		displayName: 'Companies',
		name: 'companies',
		type: 'options',
		noDataExpression: true,
		displayOptions: forPartnerApi,
		options: [
			{
				name: 'All Companies in the Credential',
				value: 'all',
				description: 'Every company of the credential, including those added later',
			},
			{
				name: 'Selected Companies',
				value: 'selected',
				description: 'The companies chosen below',
			},
		],
		default: 'all',
		description:
			'Companies to watch. A company added to the credential starts with a baseline; a removed one stops being watched at once.',
	},
	{
		displayName: 'Selected Company Names or IDs',
		name: 'companyIds',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'listPartnerCompanies' },
		required: true,
		default: [],
		displayOptions: { show: { authentication: ['partnerApi'], companies: ['selected'] } },
		description:
			'Companies of the credential\'s list. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Report Connection Changes',
		name: 'reportConnectionChanges',
		type: 'boolean',
		default: true,
		displayOptions: forPartnerApi,
		description:
			"Whether to emit one item with event connectionLost when a company's token stops working (or its row is broken), and one with event connectionRestored when it works again",
	},
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
				description: "Whether to download each new document's PDF into its item as a binary file",
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
];
