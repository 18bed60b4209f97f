import {
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type IWebhookFunctions,
} from 'n8n-workflow';

import { PartnerPayrollApiError } from '../../shared/apiError';
import { introspectToken, type Introspection } from '../../shared/company';
import { connectionOf } from '../../shared/authentication';
import type { Connection } from '../../shared/connection';
import { isObject } from '../../shared/bodies';
import { apiRequest } from '../../shared/transport';

// The authorization-code exchange and the introspection of the new token (spec: Authentication,
// Flow steps 3 and 4), through the package's one transport: its pace, timeouts and error map.

/** The administrator waits on the page: every request of one connect ends within this time. */
const CONNECT_BUDGET_MS = 25_000;

/** The partner credential's authorization server as a connection; `accessToken` only for introspection. */
function authServerConnection(
	partner: ICredentialDataDecryptedObject,
	accessToken: string,
	deadline: number,
): Connection {
	// The service counts requests per client application, as the node's connection does.
	return connectionOf(partner, {
		credentialType: 'partnerPayrollPartnerApi',
		accessToken,
		rateLimitAdvice: 'Open the connect link again in a minute.',
		deadline,
		signing: { by: 'bearer', helper: 'httpRequest' },
	});
}

/** The token endpoint refused the code (RFC 6749 5.2: a junk, used or expired code): nothing happened. */
export class CodeRefused extends NodeOperationError {}

/** Exchanges the authorization code for the company's token, once (a code is single-use). */
export async function exchangeCode(
	context: IWebhookFunctions,
	partner: ICredentialDataDecryptedObject,
	code: string,
	redirectUri: string,
): Promise<{ token: string; introspection: Introspection }> {
	const deadline = Date.now() + CONNECT_BUDGET_MS;
	const server = authServerConnection(partner, '', deadline);
	const { body } = await apiRequest(
		context,
		// Never sent twice: a second use of a code revokes the token issued with it (RFC 6749 4.1.2).
		{ ...server, attempts: 1 },
		{
			method: 'POST',
			path: `${server.authServerUrl}/token`,
			// Form-encoded, as RFC 6749 and n8n's OAuth2 client send it; client id and secret in the
			// body, as the spec and the package's OAuth2 credential (authentication: body) do.
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			body: {
				grant_type: 'authorization_code',
				code,
				redirect_uri: redirectUri,
				client_id: String(partner.clientId ?? ''),
				client_secret: String(partner.clientSecret ?? ''),
			},
			toAuthorizationServer: true,
		},
	).catch((error: unknown) => {
		// A 400 refuses the code (invalid_grant: junk, used or expired); a 401 refuses the partner's
		// application, which the partner must fix.
		if (error instanceof PartnerPayrollApiError && error.httpCode === '400') {
			throw new CodeRefused(context.getNode(), error.message);
		}
		throw error;
	});
	const token = isObject(body) ? body.access_token : undefined;
	if (typeof token !== 'string' || token === '') {
		throw new NodeOperationError(
			context.getNode(),
			'The token endpoint of the Authorization Server URL answered without an access_token.',
		);
	}
	const introspection = await introspectToken(
		context,
		authServerConnection(partner, token, deadline),
	);
	return { token, introspection };
}
