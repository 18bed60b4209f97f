import type {
	IAdditionalCredentialOptions,
	ICredentialTestFunctions,
	IExecuteFunctions,
	INode,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

// What a request needs of the credential and of its caller, as types: authentication.ts makes a
// Connection, the resources and the transport see only these. Also the one rule for an address typed
// in a credential, shared by the connection, n8n's public API and the connect link.

export type PartnerPayrollFunctions = IExecuteFunctions | IPollFunctions;

/** The node its errors name, and n8n's request helpers. */
export type RequestContext = (
	| Pick<IExecuteFunctions, 'helpers' | 'getExecutionCancelSignal'>
	| Pick<IPollFunctions, 'helpers'>
	| Pick<IWebhookFunctions, 'helpers'>
	| Pick<ICredentialTestFunctions, 'helpers'>
) & { getNode(): INode };

/**
 * How a connection's requests get their token: n8n applies the credential (the node and the triggers), or
 * the transport sends a token it was given as a bearer header, through n8n's `request` helper (a credential
 * Test, whose context has no other) or `httpRequest` (the connect link, before the token is stored).
 */
export type Signing = { by: 'credential' } | { by: 'bearer'; helper: 'request' | 'httpRequest' };

/** The node's Settings > Request Options (its helpers/requestOptions.ts): they apply to every request. */
export interface RequestOptions {
	proxy?: string;
	allowUnauthorizedCerts?: boolean;
	/** One attempt's time, in ms. */
	timeout?: number;
}

/** What the caller sets: the node for an execution, the trigger for a poll. */
export interface CallerSettings {
	/** What a rate-limit or a timeout error tells the user to change, in the caller's own settings. */
	rateLimitAdvice: string;
	timeoutAdvice?: string;
	/** When every request must have ended (epoch ms): a trigger poll's budget. */
	deadline?: number;
	/** One attempt's time when the user set no Timeout (else the request policy's own). */
	attemptTimeoutMs?: number;
	requestOptions?: RequestOptions;
}

/** A company of the Partner API credential's list as the nodes see it: its token stays in the credential. */
export interface ListedCompany {
	companyId: string;
	label: string;
	/** Why its row cannot serve requests, naming the entry and how to repair it. */
	problem?: string;
}

/** The Partner API credential's company list: each request names one company and carries that company's token. */
export interface PartnerCompanies {
	/** In the credential's order. */
	companies: ListedCompany[];
	/** Why no request can be sent for `companyId` (not in the list, or its row is broken); undefined when one can. */
	problemOf(companyId: string): string | undefined;
	/** The connection as one company: its name on every request, its token for the introspection body. */
	asCompany(companyId: string): Connection;
}

/** What every request of one execution or one poll shares: the credential's addresses and token, and the caller's settings. */
export interface Connection extends CallerSettings {
	credentialType: string;
	baseUrl: string;
	authServerUrl: string;
	/** Only for the introspection body; never put into output, errors or logs. Empty for a partner's credential. */
	accessToken: string;
	/** With the Partner API credential only. */
	partner?: PartnerCompanies;
	/** Who the rate limit counts against: the API with the OAuth2 client id, or a token's digest (never the token). */
	application: string;
	/** Attempts per request, when fewer than the request policy's (a credential Test answers at once). */
	attempts?: number;
	signing: Signing;
	/** The company every request names when the request itself names none (a partner's connection as one company). */
	companyId?: string;
	/**
	 * The credential as already read, handed to n8n's helper so that it does not read and decrypt it again
	 * for every request (with hundreds of companies that costs more than the request). Not enumerable:
	 * no copy or JSON of a connection carries the tokens (authentication.ts `withAlreadyRead`).
	 */
	readonly alreadyRead?: IAdditionalCredentialOptions;
}

/** A URL as typed in a credential, without the trailing slashes that would double the path's. */
export const withoutTrailingSlashes = (url: unknown) =>
	String(url ?? '')
		.trim()
		.replace(/\/+$/, '');

/** The service's two addresses as a credential holds them, each without trailing slashes. */
export const addressesOf = (credentials: { baseUrl?: unknown; authServerUrl?: unknown }) => ({
	baseUrl: withoutTrailingSlashes(credentials.baseUrl),
	authServerUrl: withoutTrailingSlashes(credentials.authServerUrl),
});
