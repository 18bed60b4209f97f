import { createHash } from 'crypto';
import type {
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	IPollFunctions,
} from 'n8n-workflow';

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
	/** Only for the introspection body; never put into output, errors or logs. */
	accessToken: string;
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

/** Reads the credential that the `authentication` parameter chooses (`oAuth2` or `accessToken`). */
export async function readConnection(
	context: PartnerPayrollFunctions,
	caller: CallerSettings,
): Promise<Connection> {
	const authentication = authenticationOf(context);
	const credentialType =
		authentication === 'oAuth2' ? 'partnerPayrollOAuth2Api' : 'partnerPayrollApi';
	const credentials = await context.getCredentials(credentialType);
	const oauthTokenData = credentials.oauthTokenData as { access_token?: string } | undefined;
	const baseUrl = withoutTrailingSlashes(credentials.baseUrl);
	const accessToken = String(
		authentication === 'oAuth2'
			? (oauthTokenData?.access_token ?? '')
			: (credentials.accessToken ?? ''),
	);
	const client =
		authentication === 'oAuth2'
			? `client ${String(credentials.clientId ?? '')}`
			: `token ${createHash('sha256').update(accessToken).digest('hex').slice(0, 16)}`;
	return {
		...caller,
		credentialType,
		baseUrl,
		authServerUrl: withoutTrailingSlashes(credentials.authServerUrl),
		accessToken,
		application: `${baseUrl} ${client}`,
		send: async (options) =>
			(await context.helpers.httpRequestWithAuthentication.call(
				context,
				credentialType,
				options,
			)) as IN8nHttpFullResponse,
	};
}
