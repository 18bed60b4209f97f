import type {
	IAuthenticateRuleResponseSuccessBody,
	ICredentialTestRequest,
	INodeProperties,
} from 'n8n-workflow';

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
	required: true,
	default: '',
	placeholder: 'https://auth.example.com',
};

/** An error body's `code` (the service sends the HTTP status there) and what it most likely means. */
const CAUSE_BY_CODE: Array<[number, string]> = [
	[
		400,
		'The authorization server refused the introspection request (400). Check the Authorization Server URL.',
	],
	[
		401,
		'The token was refused (401): it is invalid, revoked or replaced by a newer one. Reconnect or paste a new token.',
	],
	[
		403,
		'The token may not be checked (403): it lacks a scope or the application is not allowed. Check the scopes of the token.',
	],
	[
		404,
		'Nothing answers at the Authorization Server URL (404). Check the address: the test calls <Authorization Server URL>/introspect.',
	],
	[429, 'The authorization server asks to slow down (429). Try again in a minute.'],
	...[500, 502, 503, 504].map((status): [number, string] => [
		status,
		`The authorization server failed (${status}). Try again later, or check the Authorization Server URL.`,
	]),
];

/** An OAuth 2.0 error body (RFC 6749 / RFC 7662: `{"error": "invalid_token"}`) and what it means here. */
const CAUSE_BY_OAUTH_ERROR: Array<[string, string]> = [
	[
		'invalid_token',
		'The token was refused (invalid_token): it is invalid, revoked or replaced by a newer one. Reconnect or paste a new token.',
	],
	[
		'invalid_request',
		'The authorization server refused the introspection request (invalid_request). Check the Authorization Server URL.',
	],
	[
		'invalid_client',
		'The authorization server does not accept the application (invalid_client). Check the client of the token with the provider.',
	],
];

/**
 * The "Test" of both credentials: introspection, the token in the bearer header and in the JSON body
 * (the service needs both). Every answer reaches the rules (n8n 2.8 drops the status of a failed
 * test request and shows a generic text); only an answer with `active` other than false passes, so
 * any error status, HTML page or foreign JSON fails, with the likely cause where the body names one.
 */
export function credentialTestRequest(tokenExpression: string): ICredentialTestRequest {
	return {
		request: {
			method: 'POST',
			baseURL: '={{String($credentials.authServerUrl || "").trim().replace(/\\/+$/, "")}}',
			url: '/introspect',
			headers: { 'Content-Type': 'application/json' },
			body: { token: `={{${tokenExpression}}}` },
			json: true,
			ignoreHttpStatusErrors: true,
			// The token travels in the body: it goes to the Authorization Server URL and nowhere else.
			disableFollowRedirect: true,
		},
		rules: [
			...CAUSE_BY_OAUTH_ERROR.map(
				([error, message]): IAuthenticateRuleResponseSuccessBody => ({
					type: 'responseSuccessBody',
					properties: { key: 'error', value: error, message },
				}),
			),
			...CAUSE_BY_CODE.map(
				([code, message]): IAuthenticateRuleResponseSuccessBody => ({
					type: 'responseSuccessBody',
					properties: { key: 'code', value: code, message },
				}),
			),
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
				// An HTML page, an error without `code`, or any JSON without `active`.
				type: 'responseSuccessBody',
				properties: {
					key: 'active',
					value: undefined,
					message:
						'The Authorization Server URL did not answer like an introspection endpoint (no JSON "active" field). Check the address.',
				},
			},
		],
	};
}
