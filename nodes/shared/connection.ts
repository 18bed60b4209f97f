import { createHash } from 'crypto';
import type {
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	IPollFunctions,
} from 'n8n-workflow';

import {
	COMPANY_HINT_HEADER,
	companyInPath,
	companyOf,
	readCompanyRows,
	type CompanyRow,
} from '../../credentials/partnerCompanies';
import { authenticationField } from './descriptions';

export type PartnerPayrollFunctions = IExecuteFunctions | IPollFunctions;

/** What the transport needs of its caller: the node its errors name (a node, a trigger, a credential Test). */
export interface RequestContext {
	getNode(): INode;
}

/** The node's Request Options (n8n adds them to every declarative node): they apply to every request. */
export interface RequestOptions {
	proxy?: string;
	allowUnauthorizedCerts?: boolean;
	/** The time one attempt may take, in ms. */
	timeout?: number;
}

/** What the caller sets: the node for an execution, the trigger for a poll. */
interface CallerSettings {
	/** What a rate-limit error tells the user to change, in terms of the caller's own settings. */
	rateLimitAdvice: string;
	/** What a timeout error tells the user to change, where the caller has a setting for it. */
	timeoutAdvice?: string;
	/** When every request must have ended (epoch ms): a trigger poll's budget. */
	deadline?: number;
	/** The time one attempt may take when the user set no Timeout (the request policy's own otherwise). */
	attemptTimeoutMs?: number;
	requestOptions?: RequestOptions;
}

/** What every request of one execution or one poll shares: the credential's addresses and token, and the caller's settings. */
export interface Connection extends CallerSettings {
	credentialType: string;
	baseUrl: string;
	authServerUrl: string;
	/** Only for the introspection body; never put into output, errors or logs. Empty for a partner's credential. */
	accessToken: string;
	/** The Partner API credential's companies: each request names one, and carries that company's token. */
	companies?: CompanyRow[];
	/**
	 * Who the service counts requests against (its rate limit is per client application): the API
	 * with the OAuth2 client id, or with a digest of a token obtained outside n8n (never the token).
	 */
	application: string;
	/** Attempts per request, when fewer than the request policy's (a credential Test answers at once). */
	attempts?: number;
	/** Sends one attempt with the credential's authentication (n8n's helper; the transport decides the rest). */
	send: (options: IHttpRequestOptions) => Promise<IN8nHttpFullResponse>;
}

/** A URL as typed in a credential, without the trailing slashes that would double the path's. */
export const withoutTrailingSlashes = (url: unknown) =>
	String(url ?? '')
		.trim()
		.replace(/\/+$/, '');

/** The `authentication` parameter; its default is the field's (descriptions.ts). */
function authenticationOf(context: PartnerPayrollFunctions): string {
	const value =
		'getInputData' in context
			? context.getNodeParameter('authentication', 0, authenticationField.default)
			: context.getNodeParameter('authentication', authenticationField.default);
	return String(value);
}

/** The pacer's name for an OAuth client's application: every request of its tokens shares one budget. */
export const clientApplication = (baseUrl: string, clientId: unknown) =>
	`${baseUrl} client ${String(clientId ?? '')}`;

/** The credential each value of `authentication` chooses. */
function credentialTypeOf(authentication: string): string {
	if (authentication === 'oAuth2') return 'partnerPayrollOAuth2Api';
	return authentication === 'partnerApi' ? 'partnerPayrollPartnerApi' : 'partnerPayrollApi';
}

/** Reads the credential that the `authentication` parameter chooses (`oAuth2`, `accessToken` or `partnerApi`). */
export async function readConnection(
	context: PartnerPayrollFunctions,
	caller: CallerSettings,
): Promise<Connection> {
	const authentication = authenticationOf(context);
	const credentialType = credentialTypeOf(authentication);
	const credentials = await context.getCredentials(credentialType);
	const oauthTokenData = credentials.oauthTokenData as { access_token?: string } | undefined;
	const baseUrl = withoutTrailingSlashes(credentials.baseUrl);
	const accessToken = String(
		authentication === 'oAuth2'
			? (oauthTokenData?.access_token ?? '')
			: authentication === 'partnerApi'
				? ''
				: (credentials.accessToken ?? ''),
	);
	// The service counts every company's requests against the partner's one application.
	const application =
		authentication === 'accessToken'
			? `${baseUrl} token ${createHash('sha256').update(accessToken).digest('hex').slice(0, 16)}`
			: clientApplication(baseUrl, credentials.clientId);
	// n8n reads and decrypts a credential again for every request unless it is given the one read here:
	// with hundreds of companies that costs more than the request (a poll over 300 companies took over a
	// minute in n8n 2.40.7). The credential's own authenticate still runs on every request.
	const alreadyRead =
		authentication === 'partnerApi'
			? {
					credentialsDecrypted: {
						...credentialReference(context, credentialType),
						data: credentials,
					},
				}
			: undefined;
	return {
		...caller,
		credentialType,
		baseUrl,
		authServerUrl: withoutTrailingSlashes(credentials.authServerUrl),
		accessToken,
		...(authentication === 'partnerApi' ? { companies: readCompanyRows(credentials) } : {}),
		application,
		send: async (options) =>
			(await context.helpers.httpRequestWithAuthentication.call(
				context,
				credentialType,
				authentication === 'partnerApi' ? withCompanyHint(options) : options,
				alreadyRead,
			)) as IN8nHttpFullResponse,
	};
}

/** The node's reference to its credential of `credentialType` (id and name), as n8n's helpers take it. */
function credentialReference(context: PartnerPayrollFunctions, credentialType: string) {
	const reference = context.getNode().credentials?.[credentialType];
	return { id: reference?.id ?? '', name: reference?.name ?? credentialType, type: credentialType };
}

/**
 * The connection as one company of the Partner API credential: its token for the introspection body,
 * and its name on every request, including those whose path names no company (the authorization server).
 */
export function companyConnection(connection: Connection, companyId: string): Connection {
	const { accessToken } = companyOf(connection.companies ?? [], companyId);
	return {
		...connection,
		accessToken,
		send: async (options) =>
			await connection.send({
				...options,
				headers: { ...(options.headers ?? {}), [COMPANY_HINT_HEADER]: companyId },
			}),
	};
}

/**
 * The Partner API credential sends the token of the company a request names: the company in the
 * API path, unless the caller named one (a request without either gets no token at all).
 */
function withCompanyHint(options: IHttpRequestOptions): IHttpRequestOptions {
	const headers = options.headers ?? {};
	if (Object.keys(headers).some((name) => name.toLowerCase() === COMPANY_HINT_HEADER))
		return options;
	const companyId = companyInPath(
		new URL(options.url, options.baseURL || 'http://path.invalid').pathname,
	);
	return companyId === undefined
		? options
		: { ...options, headers: { ...headers, [COMPANY_HINT_HEADER]: companyId } };
}
