import type { Connection, PartnerPayrollFunctions } from './connection';
import { failureError } from './errors';
import { checkedId } from './ids';
import { apiRequest } from './transport';

/** The collections a company is read from: its record, its French record, everything below it. */
export type CompanyCollection = 'companies' | 'companies-fr';

/** The one way to build a company's path: the id as one URL-encoded segment, then what is below it. */
export function companyPath(
	companyId: string,
	below = '',
	collection: CompanyCollection = 'companies',
): string {
	return `/${collection}/${encodeURIComponent(companyId)}${below}`;
}

interface Introspection {
	active: boolean;
	company_id?: string;
}

/**
 * Asks the authorization server about the credential's token. The service wants the token both
 * as the bearer header and in the JSON body; it goes to the credential's own server only.
 */
async function introspectToken(
	context: PartnerPayrollFunctions,
	connection: Connection,
): Promise<Introspection> {
	if (!connection.authServerUrl) throw failureError(context.getNode(), 'noAuthServer');
	const response = await apiRequest(context, connection, {
		method: 'POST',
		path: `${connection.authServerUrl}/introspect`,
		body: { token: connection.accessToken },
		headers: { 'Content-Type': 'application/json' },
		readOnly: true,
		toAuthorizationServer: true,
	});
	return response.body as Introspection;
}

/** An explicit company id wins; otherwise the company the token was issued for. */
export async function resolveCompanyId(
	context: PartnerPayrollFunctions,
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
