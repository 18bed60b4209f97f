import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	Icon,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { apiBaseUrlField, authServerUrlField } from './common';

export class PartnerPayrollApi implements ICredentialType {
	name = 'partnerPayrollApi';

	displayName = 'Partner Payroll Access Token API';

	icon: Icon = {
		light: 'file:../icons/partnerPayroll.svg',
		dark: 'file:../icons/partnerPayroll.dark.svg',
	};

	documentationUrl = 'https://github.com/partner-payroll/n8n-nodes-partner-payroll#credentials';

	properties: INodeProperties[] = [
		apiBaseUrlField,
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
			...authServerUrlField,
			description:
				'Address of the authorization server. The credential Test checks the token by introspection there, and an empty Company ID in the nodes means the company of the token.',
		},
	];

	// Tested by the nodes (`testedBy: 'partnerPayrollTokenTest'`): introspection through the package's
	// transport, which names the company and scopes of the token.

	// A function, not a generic `=Bearer {{...}}` header: n8n would evaluate that expression in its
	// sandbox for every request.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				Authorization: `Bearer ${String(credentials.accessToken ?? '')}`,
			},
		};
	}
}
