import type { ICredentialTestRequest, INodeProperties } from 'n8n-workflow';

export const apiBaseUrlField: INodeProperties = {
	displayName: 'API Base URL',
	name: 'baseUrl',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'https://api.example.com/v1',
	description: 'Base address of the Partner Payroll API, as given by the provider',
};

export const authServerUrlField: INodeProperties = {
	displayName: 'Authorization Server URL',
	name: 'authServerUrl',
	type: 'string',
	default: '',
	placeholder: 'https://auth.example.com',
};

/**
 * The "Test" of both credentials. With an authorization server: introspection, token in the
 * bearer header and in the JSON body (the service needs both). Without one, a company read with a
 * placeholder id: 401 means a bad token, while 404 (another company) proves the token was accepted.
 * HTTP errors are not thrown so the rules below can turn the service's answer into a clear message.
 */
export function credentialTestRequest(tokenExpression: string): ICredentialTestRequest {
	return {
		request: {
			method: '={{$credentials.authServerUrl ? "POST" : "GET"}}' as 'POST',
			baseURL: '={{$credentials.authServerUrl || $credentials.baseUrl}}',
			url: '={{$credentials.authServerUrl ? "/introspect" : "/companies/credential-test"}}',
			headers: { 'Content-Type': 'application/json' },
			body: { token: `={{${tokenExpression}}}` },
			json: true,
			ignoreHttpStatusErrors: true,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'active',
					value: false,
					message:
						'The token is not active: it was revoked, replaced by a newer token, or never existed. Reconnect or paste a new token.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'code',
					value: 401,
					message:
						'The token was refused (401): it is invalid or revoked. Reconnect or paste a new token.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'code',
					value: 400,
					message:
						'The authorization server refused the introspection request (400). Check the Authorization Server URL.',
				},
			},
		],
	};
}
