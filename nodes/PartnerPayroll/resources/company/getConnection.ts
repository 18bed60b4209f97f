import { introspectToken } from '../../../shared/company';
import { failureError } from '../../../shared/errors';
import { listedCompanyId } from '../../helpers/itemCompany';
import type { Operation } from '../resource';

/**
 * POST {Authorization Server URL}/introspect: which company, client and scopes the credential's token
 * is for. n8n runs no Test for a connected OAuth2 credential, so this is where a user sees it.
 */
export const getConnection: Operation = {
	option: {
		name: 'Get Connection',
		value: 'getConnection',
		action: 'Get the connection of the credential',
		description:
			"Which company, application and scopes the credential's token is for, as the authorization server says (no request to the API)",
	},
	fields: [],
	async execute(itemIndex, connection) {
		// With the Partner API credential, the token of the item's company (checked against the list first).
		const { partner } = connection;
		const introspection = await introspectToken(
			this,
			partner ? partner.asCompany(listedCompanyId(this, itemIndex, connection)) : connection,
		);
		if (!introspection.active) throw failureError(this.getNode(), 'inactiveToken', {}, itemIndex);
		return [
			{
				json: {
					active: true,
					companyId: introspection.company_id ?? null,
					clientId: introspection.client_id ?? null,
					scopes: String(introspection.scope ?? '')
						.split(' ')
						.filter(Boolean),
				},
			},
		];
	},
};
