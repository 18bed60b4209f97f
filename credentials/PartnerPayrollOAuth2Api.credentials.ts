import type { ICredentialTestRequest, ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

import { apiBaseUrlField, authServerUrlField, credentialTestRequest } from './common';

const SCOPES = [
	{ name: 'Accounting (accounting:read)', value: 'accounting:read' },
	{ name: 'Health Insurance (health-insurance:read)', value: 'health-insurance:read' },
	{ name: 'Payment Files (payment-files:read)', value: 'payment-files:read' },
	{
		name: 'Payslips and UK Tax Documents (contracts:payslips:read)',
		value: 'contracts:payslips:read',
	},
	{ name: 'Pension (pension:read)', value: 'pension:read' },
];

// A trailing slash typed by the user must not double the one before "authorize"/"token".
const AUTH_SERVER =
	'{{$self["authServerUrl"].endsWith("/") ? $self["authServerUrl"].slice(0, -1) : $self["authServerUrl"]}}';

export class PartnerPayrollOAuth2Api implements ICredentialType {
	name = 'partnerPayrollOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'Partner Payroll OAuth2 API';

	icon: Icon = {
		light: 'file:../icons/partnerPayroll.svg',
		dark: 'file:../icons/partnerPayroll.dark.svg',
	};

	documentationUrl = 'https://github.com/partner-payroll/n8n-nodes-partner-payroll#credentials';

	properties: INodeProperties[] = [
		apiBaseUrlField,
		{
			...authServerUrlField,
			description:
				'Address of the authorization server; /authorize, /token and /introspect are below it',
		},
		{
			displayName: 'Scopes',
			name: 'scopes',
			type: 'multiOptions',
			options: SCOPES,
			default: SCOPES.map((scope) => scope.value),
			description:
				'Scopes to request. They must be among the scopes registered for your application, or the connection fails.',
		},
		{ displayName: 'Grant Type', name: 'grantType', type: 'hidden', default: 'authorizationCode' },
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'hidden',
			default: `=${AUTH_SERVER}/authorize`,
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: `=${AUTH_SERVER}/token`,
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'hidden',
			default: '={{$self["scopes"].join(" ")}}',
		},
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: '',
		},
		// The spec sends client id and secret in the token request body.
		{ displayName: 'Authentication', name: 'authentication', type: 'hidden', default: 'body' },
	];

	test: ICredentialTestRequest = credentialTestRequest('$credentials.oauthTokenData.access_token');
}
