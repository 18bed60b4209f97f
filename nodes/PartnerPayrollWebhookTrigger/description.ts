import type { INodeProperties } from 'n8n-workflow';

import { MATCH_PARTNER_COMPANIES } from './helpers/companyHealth';
import { DEFAULT_TOLERANCE_SECONDS } from './helpers/signature';

// The trigger's parameters, in the order the editor shows them.
export const webhookTriggerProperties: INodeProperties[] = [
	{
		displayName:
			"Set up by hand: in the provider's webhook portal, add an endpoint with this node's Production URL (above, under Webhook URLs), then copy that endpoint's signing secret (whsec_...) into the credential. The Test URL needs an endpoint of its own: put its secret in Additional Signing Secrets.",
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		options: [
			{
				name: 'Integration Activated',
				value: 'integration.activated',
				description: 'A company connected the partner application',
			},
			{
				name: 'Integration Deactivated',
				value: 'integration.deactivated',
				description: 'A company disconnected the partner application',
			},
			{
				name: 'Payroll Run',
				value: 'payroll.run',
				description: "A company's payroll month was run",
			},
		],
		default: ['payroll.run'],
		description:
			'Events that start the workflow. Other events are acknowledged without an execution.',
	},
	{
		displayName: 'Companies',
		name: 'companies',
		type: 'options',
		options: [
			{
				name: 'All',
				value: 'all',
				description: 'Every client company of the endpoint',
			},
			{
				name: 'Selected',
				value: 'selected',
				description: 'Only the companies listed below',
			},
		],
		default: 'all',
	},
	{
		displayName: 'Company IDs',
		name: 'companyIds',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'FR1001, GB3001',
		displayOptions: { show: { companies: ['selected'] } },
		description:
			'IDs of the companies whose events start the workflow, separated by commas. Events of other companies are acknowledged without an execution.',
	},
	{
		displayName: 'Match Companies of a Partner Credential',
		name: MATCH_PARTNER_COMPANIES,
		type: 'boolean',
		default: false,
		description:
			"Whether to read the companies of a Partner Payroll Partner API credential (IDs and labels, never tokens): every item gets the company's label, and the integration events become connection changes, once per change (connectionLost, connectionRestored, or companyNotConnected for a company to connect)",
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Fire Again on Re-Run',
				name: 'fireOnRerun',
				type: 'boolean',
				default: false,
				description:
					'Whether a payroll run of a month already delivered starts the workflow again when its effectiveDate differs (payroll run again). Off: a month starts the workflow once.',
			},
			{
				displayName: 'Ignore Months Before',
				name: 'ignoreMonthsBefore',
				type: 'string',
				default: '',
				placeholder: '202601',
				description:
					'Payroll runs of months before this one (YYYYMM) are acknowledged without an execution, so a bulk replay from the portal does not start old months',
			},
			{
				displayName: 'Timestamp Tolerance (Seconds)',
				name: 'toleranceSeconds',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_TOLERANCE_SECONDS,
				description:
					"How far a delivery's signed timestamp may be from this server's clock, in the past or the future, before the delivery is refused as a possible replay",
			},
		],
	},
];
