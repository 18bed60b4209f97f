import { createHash } from 'crypto';
import type {
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeCredentialDescription,
	INodeProperties,
} from 'n8n-workflow';

import {
	COMPANY_HINT_HEADER,
	companyInPath,
	companyOf,
	companyProblem,
	readCompanyRows,
	type CompanyRow,
} from '../../credentials/partnerCompanies';
import {
	clientApplication,
	withoutTrailingSlashes,
	type CallerSettings,
	type Connection,
	type PartnerCompanies,
	type PartnerPayrollFunctions,
} from './connection';

// The Authentication parameter of the node and the trigger: the credential each of its values
// chooses, and how it is read into the Connection every request of an execution or a poll shares.

export const authenticationField: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'Access Token', value: 'accessToken' },
		{ name: 'OAuth2', value: 'oAuth2' },
		{ name: 'Partner API (Many Companies)', value: 'partnerApi' },
	],
	default: 'oAuth2',
};

type CredentialChoice = Omit<INodeCredentialDescription, 'name'>;

// The credential each value of `authentication` selects. Each node lists them with their names and
// `testedBy` written out: n8n's lint reads those from the node file.
export const ACCESS_TOKEN_CHOICE: CredentialChoice = {
	required: true,
	displayOptions: { show: { authentication: ['accessToken'] } },
};

export const OAUTH2_CHOICE: CredentialChoice = {
	required: true,
	displayOptions: { show: { authentication: ['oAuth2'] } },
};

export const PARTNER_CHOICE: CredentialChoice = {
	required: true,
	displayOptions: { show: { authentication: ['partnerApi'] } },
};

/** The `authentication` parameter; its default is the field's. */
function authenticationOf(context: PartnerPayrollFunctions): string {
	const value =
		'getInputData' in context
			? context.getNodeParameter('authentication', 0, authenticationField.default)
			: context.getNodeParameter('authentication', authenticationField.default);
	return String(value);
}

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
	const partner = authentication === 'partnerApi';
	// n8n reads and decrypts a credential again for every request unless it is given the one read here:
	// with hundreds of companies that costs more than the request (a poll over 300 companies took over a
	// minute in n8n 2.40.7). The credential's own authenticate still runs on every request.
	const alreadyRead = partner
		? {
				credentialsDecrypted: {
					...credentialReference(context, credentialType),
					data: credentials,
				},
			}
		: undefined;
	const connection: Connection = {
		...caller,
		credentialType,
		baseUrl,
		authServerUrl: withoutTrailingSlashes(credentials.authServerUrl),
		accessToken,
		application,
		send: async (options) =>
			(await context.helpers.httpRequestWithAuthentication.call(
				context,
				credentialType,
				partner ? withCompanyHint(options) : options,
				alreadyRead,
			)) as IN8nHttpFullResponse,
	};
	if (partner) connection.partner = partnerCompanies(connection, readCompanyRows(credentials));
	return connection;
}

/** The node's reference to its credential of `credentialType` (id and name), as n8n's helpers take it. */
function credentialReference(context: PartnerPayrollFunctions, credentialType: string) {
	const reference = context.getNode().credentials?.[credentialType];
	return { id: reference?.id ?? '', name: reference?.name ?? credentialType, type: credentialType };
}

/** The company list as requests see it: the companies without their tokens, which only `asCompany` reads. */
function partnerCompanies(connection: Connection, rows: CompanyRow[]): PartnerCompanies {
	return {
		companies: rows.map(({ companyId, label, problem }) => ({ companyId, label, problem })),
		problemOf: (companyId) => companyProblem(rows, companyId),
		// Named on every request, including those whose path names no company (the authorization server).
		asCompany: (companyId) => ({
			...connection,
			accessToken: companyOf(rows, companyId).accessToken,
			send: async (options) =>
				await connection.send({
					...options,
					headers: { ...(options.headers ?? {}), [COMPANY_HINT_HEADER]: companyId },
				}),
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
