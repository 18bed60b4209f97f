import { createHash } from 'crypto';
import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	INodeProperties,
} from 'n8n-workflow';

import { companyOf, companyProblem, readCompanyIndex } from '../../credentials/partnerCompanies';
import {
	type CallerSettings,
	type Connection,
	type PartnerCompanies,
	type PartnerPayrollFunctions,
	addressesOf,
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
	const partner = authentication === 'partnerApi';
	const accessToken = String(
		authentication === 'oAuth2'
			? (oauthTokenData?.access_token ?? '')
			: partner
				? ''
				: (credentials.accessToken ?? ''),
	);
	// n8n would read and decrypt the credential again for every request, and the credential's list
	// would be read again with it: the one read here serves every request of the execution or poll.
	// n8n quirk Q13: docs/n8n-quirks.md
	const alreadyRead = partner
		? {
				credentialsDecrypted: {
					...credentialReference(context, credentialType),
					data: credentials,
				},
			}
		: undefined;
	const connection = connectionOf(credentials, {
		...caller,
		credentialType,
		accessToken,
		signing: { by: 'credential' },
		// A partner's companies all count against its one application, as OAuth2 tokens do.
		countedAs:
			authentication === 'accessToken'
				? { tokenDigest: createHash('sha256').update(accessToken).digest('hex').slice(0, 16) }
				: undefined,
		alreadyRead,
	});
	if (alreadyRead) connection.partner = partnerCompanies(connection, credentials, alreadyRead);
	return connection;
}

/** The node's reference to its credential of `credentialType` (id and name), as n8n's helpers take it. */
function credentialReference(context: PartnerPayrollFunctions, credentialType: string) {
	const reference = context.getNode().credentials?.[credentialType];
	return { id: reference?.id ?? '', name: reference?.name ?? credentialType, type: credentialType };
}

/**
 * The company list as callers see it: the companies without their tokens, which only `asCompany`
 * reads. Read on first use: a request does not need it (the credential checks its company itself).
 */
function partnerCompanies(
	connection: Connection,
	credentials: ICredentialDataDecryptedObject,
	alreadyRead: IAdditionalCredentialOptions,
): PartnerCompanies {
	const index = () => readCompanyIndex(credentials);
	return {
		get companies() {
			return index().rows.map(({ companyId, label, problem }) => ({ companyId, label, problem }));
		},
		problemOf: (companyId) => companyProblem(index(), companyId),
		asCompany: (companyId) =>
			withAlreadyRead(
				{ ...connection, accessToken: companyOf(index(), companyId).accessToken, companyId },
				alreadyRead,
			),
	};
}

/** `connection` with the credential already read, kept out of its enumerable fields (copies do not carry it). */
export function withAlreadyRead<T extends Connection>(
	connection: T,
	alreadyRead: IAdditionalCredentialOptions | undefined,
): T {
	if (alreadyRead) Object.defineProperty(connection, 'alreadyRead', { value: alreadyRead });
	return connection;
}

/** Who the service counts a connection's requests against, when not the credential's OAuth client. */
export type CountedAs = { tokenDigest: string } | 'credentialTest';

/**
 * A connection to the credential's two addresses (as typed, without trailing slashes): the one way a
 * node, a trigger, the connect link or a credential Test makes one.
 */
export function connectionOf(
	credentials: ICredentialDataDecryptedObject,
	fields: Omit<Connection, 'baseUrl' | 'authServerUrl' | 'application' | 'alreadyRead'> & {
		countedAs?: CountedAs;
		alreadyRead?: IAdditionalCredentialOptions;
	},
): Connection {
	const { countedAs, alreadyRead, ...rest } = fields;
	const { baseUrl, authServerUrl } = addressesOf(credentials);
	// The service's rate limit is per client application: the API with the OAuth2 client id, or with a
	// digest of a token obtained outside n8n (never the token); a credential Test paces on its own.
	const application =
		countedAs === 'credentialTest'
			? `${authServerUrl} credential test`
			: countedAs
				? `${baseUrl} token ${countedAs.tokenDigest}`
				: `${baseUrl} client ${String(credentials.clientId ?? '')}`;
	return withAlreadyRead({ ...rest, baseUrl, authServerUrl, application }, alreadyRead);
}
