import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

export const authenticationField: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'Access Token', value: 'accessToken' },
		{ name: 'OAuth2', value: 'oAuth2' },
	],
	default: 'oAuth2',
};

/** The credential each value of `authentication` selects (see credentialTypeFor). */
export const credentialsByAuthentication: INodeCredentialDescription[] = [
	{
		name: 'partnerPayrollApi',
		required: true,
		displayOptions: { show: { authentication: ['accessToken'] } },
	},
	{
		name: 'partnerPayrollOAuth2Api',
		required: true,
		displayOptions: { show: { authentication: ['oAuth2'] } },
	},
];

export const companyIdField: INodeProperties = {
	displayName: 'Company ID',
	name: 'companyId',
	type: 'string',
	default: '',
	placeholder: 'Leave empty for the company of the token',
	description:
		'ID of the company to read. Leave empty to use the company the token was issued for (found once per execution through the authorization server).',
};

export const monthField: INodeProperties = {
	displayName: 'Month',
	name: 'month',
	type: 'string',
	required: true,
	default: '',
	placeholder: '202610',
	description:
		'Payroll month as YYYYMM. YYYY-MM and ISO dates (for example from {{ $now }}) are accepted and converted.',
};

export const binaryPropertyNameField: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	required: true,
	default: 'data',
	hint: 'The name of the output binary field to put the file in',
};
