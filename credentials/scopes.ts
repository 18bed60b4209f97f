import type { INodeProperties } from 'n8n-workflow';

/** The scopes the service names (spec: Authentication), as the OAuth2 credential offers them. */
export const SCOPES = [
	{ name: 'Accounting (accounting:read)', value: 'accounting:read' },
	{ name: 'Health Insurance (health-insurance:read)', value: 'health-insurance:read' },
	{ name: 'Payment Files (payment-files:read)', value: 'payment-files:read' },
	{
		name: 'Payslips and UK Tax Documents (contracts:payslips:read)',
		value: 'contracts:payslips:read',
	},
	{ name: 'Pension (pension:read)', value: 'pension:read' },
];

export const ALL_SCOPES = SCOPES.map((scope) => scope.value);

/** The Scopes field of whatever asks for scopes (the OAuth2 credential, the connect link): empty asks for all five. */
export const scopesField: INodeProperties = {
	displayName: 'Scopes',
	name: 'scopes',
	type: 'multiOptions',
	options: SCOPES,
	default: [],
};
