import { NodeOperationError } from 'n8n-workflow';

import type { Connection, RequestContext } from './connection';
import { failureError } from './errors';
import { checkedId } from './ids';
import { isObject } from './bodies';
import { apiRequest } from './transport';

/** The authorization server's answer about a token (spec: Introspection). */
export interface Introspection {
	active: boolean;
	company_id?: string;
	/** The OAuth client the token was issued to (absent for a company API key). */
	client_id?: string;
	/** Space-separated scopes. */
	scope?: string;
}

/**
 * Asks the authorization server about the credential's token. The service wants the token both
 * as the bearer header and in the JSON body; it goes to the credential's own server only.
 */
export async function introspectToken(
	context: RequestContext,
	connection: Connection,
): Promise<Introspection> {
	if (!connection.authServerUrl) throw failureError(context.getNode(), 'noAuthServer');
	// A sign-in page or another service answering 200 is not the server's word on the token.
	const { body } = await apiRequest(context, connection, {
		method: 'POST',
		path: `${connection.authServerUrl}/introspect`,
		body: { token: connection.accessToken },
		headers: { 'Content-Type': 'application/json' },
		readOnly: true,
		toAuthorizationServer: true,
	}).catch((error: unknown) => {
		throw isTextAnswer(error) ? notAnIntrospection(context, 'text (an HTML page, say)') : error;
	});
	if (!isObject(body) || typeof body.active !== 'boolean') {
		const shown = JSON.stringify(body ?? null).slice(0, 100);
		throw notAnIntrospection(context, `JSON without it (${shown})`);
	}
	return body as unknown as Introspection;
}

/** The read rule of the transport refused a text answer (an HTML page, say). */
const isTextAnswer = (error: unknown) =>
	error instanceof NodeOperationError &&
	['malformedAnswer', 'unexpectedAnswer'].includes(String(error.context.failure));

const notAnIntrospection = (context: RequestContext, what: string) =>
	failureError(context.getNode(), 'notAnIntrospection', { what });

/** An explicit company id wins; otherwise the company the token was issued for. */
export async function resolveCompanyId(
	context: RequestContext,
	connection: Connection,
	explicitCompanyId: string,
): Promise<string> {
	const node = context.getNode();
	const typed = explicitCompanyId.trim();
	if (typed) return checkedId(typed, 'Company ID', node);
	const introspection = await introspectToken(context, connection);
	if (!introspection.active || !introspection.company_id) throw failureError(node, 'inactiveToken');
	return checkedId(introspection.company_id, 'The company of the token', node);
}
