import type { IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

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

// n8n quirk Q9: docs/n8n-quirks.md
/**
 * `ICredentialType.restrictToSupportedNodes` as n8n-workflow 2.25.0 and later type it; the package compiles
 * against an older n8n-workflow, which lacks it. A second interface beside ICredentialType, not one that
 * replaces it: n8n's lint and scanner recognise a credential class by `implements ICredentialType`.
 */
export interface RestrictableToSupportedNodes {
	restrictToSupportedNodes?: true;
}

/**
 * The origin a request goes to and the origin of `address` (a credential's own URL); each undefined
 * when it is not a URL, so that a caller compares them before it signs anything.
 */
export function originsOf(
	requestOptions: IHttpRequestOptions,
	address: unknown,
): { target?: string; own?: string } {
	const origin = (url: string, base?: string) => {
		try {
			return new URL(url, base || undefined).origin;
		} catch {
			return undefined;
		}
	};
	return {
		target: origin(requestOptions.url, requestOptions.baseURL),
		own: origin(String(address ?? '').trim()),
	};
}
