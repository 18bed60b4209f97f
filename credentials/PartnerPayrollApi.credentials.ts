import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { credentialTestRequest } from './credentialTest';

export class PartnerPayrollApi implements ICredentialType {
	name = 'partnerPayrollApi';

	displayName = 'Partner Payroll Access Token API';

	icon: Icon = {
		light: 'file:../icons/partnerPayroll.svg',
		dark: 'file:../icons/partnerPayroll.dark.svg',
	};

	documentationUrl = 'https://github.com/partner-payroll/n8n-nodes-partner-payroll#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://api.example.com/v1',
			description: 'Base address of the Partner Payroll API, as given by the provider',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'A token obtained outside n8n, for example a company API key',
		},
		{
			displayName: 'Authorization Server URL',
			name: 'authServerUrl',
			type: 'string',
			default: '',
			placeholder: 'https://auth.example.com',
			description:
				'Optional. With it, the credential test checks the token by introspection, and an empty Company ID in the node means the company of the token.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.accessToken}}' } },
	};

	test: ICredentialTestRequest = credentialTestRequest('$credentials.accessToken');
}
