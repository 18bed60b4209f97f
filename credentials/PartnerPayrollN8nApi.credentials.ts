import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { originsOf, type RestrictableToSupportedNodes } from './common';

/** The header n8n's public API reads its key from (n8n 2.8.4 and 2.40.7). */
export const N8N_API_KEY_HEADER = 'X-N8N-API-KEY';

/**
 * An API key of the partner's own n8n instance, so that the connect link can save a company's token
 * into the Partner API credential through n8n's public API (the only encrypted store a node can
 * write). n8n's lint forbids reusing n8n's own `n8nApi` credential in a community package.
 */
export class PartnerPayrollN8nApi implements ICredentialType, RestrictableToSupportedNodes {
	name = 'partnerPayrollN8nApi';

	// Like the Partner API credential: without it, n8n's HTTP Request node could use this credential
	// and send the key to any address. n8n with n8n-core 2.25 or later refuses it to other nodes; older
	// n8n (2.8.4 in the lab) ignores the field.
	// n8n quirk Q10: docs/n8n-quirks.md
	restrictToSupportedNodes = true as const;

	displayName = 'Partner Payroll N8n API';

	icon: Icon = {
		light: 'file:../icons/partnerPayroll.svg',
		dark: 'file:../icons/partnerPayroll.dark.svg',
	};

	documentationUrl =
		'https://github.com/partner-payroll/n8n-nodes-partner-payroll#partners-with-many-companies';

	properties: INodeProperties[] = [
		{
			displayName: 'n8n URL',
			name: 'url',
			type: 'string',
			required: true,
			default: 'http://127.0.0.1:5678',
			placeholder: 'https://n8n.example.com',
			description:
				"Address of this n8n instance, as this n8n reaches itself (without /api/v1). Used only to save companies' tokens into the Partner API credential.",
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				"An n8n API key (Settings → n8n API) of a user who owns the Partner API credential. n8n's public API must be enabled.",
		},
	];

	// A function, like the package's other credentials: n8n would evaluate a generic header's
	// expression in its sandbox for every request.
	// The key goes to this n8n only, also where n8n lets another node use the credential (n8n 2.8
	// ignores restrictToSupportedNodes, quirk Q9): a request to another origin is not signed.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const { target, own } = originsOf(requestOptions, credentials.url);
		if (own === undefined || target !== own) {
			throw new Error(
				`The n8n API key goes only to the credential's n8n URL${own ? ` (${own})` : ''}, not to ${target ?? `"${requestOptions.url}"`}; nothing was sent.`,
			);
		}
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				[N8N_API_KEY_HEADER]: String(credentials.apiKey ?? ''),
			},
		};
	}

	// Listing one credential works in n8n 2.8.4 and 2.40.7 (public-api/v1/openapi.yml, GET /credentials)
	// and says whether the public API is on and the key accepted. A failure shows n8n's own message for
	// the status (401: "Authorization failed", 404: "could not be found"); the Connect trigger's item
	// and Remove Company's error say what to fix.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ String($credentials.url).replace(/\\/+$/, "") }}/api/v1',
			url: '/credentials',
			qs: { limit: 1 },
			// A redirect would take the key header along to the address it names.
			disableFollowRedirect: true,
		},
	};
}
