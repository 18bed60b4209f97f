import { NodeOperationError } from 'n8n-workflow';

import type { Connection, PartnerPayrollFunctions } from './credentials';
import { apiRequest } from './transport';

export interface Introspection {
	active: boolean;
	scope?: string;
	client_id?: string;
	company_id?: string;
	token_type?: string;
}

/**
 * Asks the authorization server about the credential's token. The service wants the token both
 * as the bearer header and in the JSON body; it goes to the credential's own server only.
 */
export async function introspectToken(
	context: PartnerPayrollFunctions,
	connection: Connection,
): Promise<Introspection> {
	const node = context.getNode();
	if (!connection.authServerUrl) {
		throw new NodeOperationError(
			node,
			'Company ID is empty and the credential has no Authorization Server URL',
			{
				description:
					'Either type the Company ID, or set the Authorization Server URL in the credential so the company of the token can be looked up.',
			},
		);
	}
	const response = await apiRequest(context, connection, {
		method: 'POST',
		path: `${connection.authServerUrl}/introspect`,
		body: { token: connection.accessToken },
		headers: { 'Content-Type': 'application/json' },
		readOnly: true,
	});
	return response.body as Introspection;
}

/** An explicit company id wins; otherwise the company the token was issued for. */
export async function resolveCompanyId(
	context: PartnerPayrollFunctions,
	connection: Connection,
	explicitCompanyId: string,
): Promise<string> {
	const typed = explicitCompanyId.trim();
	if (typed) return typed;
	const introspection = await introspectToken(context, connection);
	if (!introspection.active || !introspection.company_id) {
		throw new NodeOperationError(context.getNode(), 'The access token is not active', {
			description:
				'The authorization server reports the token as revoked or unknown. Reconnect the Partner Payroll credential.',
		});
	}
	return introspection.company_id;
}
