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

/** The absolute address a request goes to (its `url` absolute or relative to `baseURL`); undefined if none. */
export function requestTargetOf(requestOptions: IHttpRequestOptions): URL | undefined {
	try {
		return new URL(requestOptions.url, requestOptions.baseURL || undefined);
	} catch {
		return undefined;
	}
}

/** The origin of an address a credential holds; undefined when it is not a URL. */
export function originOf(address: unknown): string | undefined {
	try {
		return new URL(String(address ?? '').trim()).origin;
	} catch {
		return undefined;
	}
}
