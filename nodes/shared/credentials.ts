import type { IExecuteSingleFunctions, IPollFunctions } from 'n8n-workflow';

export type PartnerPayrollFunctions = IExecuteSingleFunctions | IPollFunctions;

/** What a request to the service needs to know about the credential the user chose. */
export interface Connection {
	credentialType: string;
	baseUrl: string;
	authServerUrl: string;
	/** Only for the introspection body; never put into output, errors or logs. */
	accessToken: string;
	/** When every request made with this connection must have ended (epoch ms): a trigger poll's budget. */
	deadline?: number;
}

export function trimTrailingSlashes(url: string): string {
	return url.trim().replace(/\/+$/, '');
}

/** Credential type of the nodes' `authentication` parameter value (`oAuth2` or `accessToken`). */
export function credentialTypeFor(authentication: string): string {
	return authentication === 'oAuth2' ? 'partnerPayrollOAuth2Api' : 'partnerPayrollApi';
}

export async function getConnection(context: PartnerPayrollFunctions): Promise<Connection> {
	const authentication = context.getNodeParameter('authentication', 'accessToken') as string;
	const credentialType = credentialTypeFor(authentication);
	const credentials = await context.getCredentials(credentialType);
	const oauthTokenData = credentials.oauthTokenData as { access_token?: string } | undefined;
	return {
		credentialType,
		baseUrl: trimTrailingSlashes(String(credentials.baseUrl ?? '')),
		authServerUrl: trimTrailingSlashes(String(credentials.authServerUrl ?? '')),
		accessToken: String(
			authentication === 'oAuth2'
				? (oauthTokenData?.access_token ?? '')
				: (credentials.accessToken ?? ''),
		),
	};
}
