'use strict';
// Credential records for `n8n import:credentials`, pointing at a running sandbox. `data` is plain:
// n8n encrypts it on import.
const path = require('node:path');
const { repoRoot } = require('./paths');
const { loadClients } = require(path.join(repoRoot, 'sandbox', 'clients.js'));

const ALL_SCOPES = Object.freeze([
	'payment-files:read',
	'accounting:read',
	'contracts:payslips:read',
	'health-insurance:read',
	'pension:read',
]);

/** The sandbox's default OAuth client, as sandbox/clients.json registers it. */
function defaultSandboxClient() {
	const clients = loadClients();
	const { clientId, clientSecret } = clients.get(clients.defaultClientId);
	return Object.freeze({ clientId, clientSecret });
}
const DEFAULT_CLIENT = defaultSandboxClient();

function accessTokenCredential({ id, name, sandbox, accessToken }) {
	return {
		id,
		name,
		type: 'partnerPayrollApi',
		data: { baseUrl: sandbox.apiBaseUrl, accessToken, authServerUrl: sandbox.authServerUrl },
	};
}

/** Not connected unless `tokenData` (n8n's `oauthTokenData`) is given. */
function oauth2Credential({ id, name, sandbox, client = DEFAULT_CLIENT, scopes = ALL_SCOPES, tokenData }) {
	const data = {
		baseUrl: sandbox.apiBaseUrl,
		authServerUrl: sandbox.authServerUrl,
		clientId: client.clientId,
		clientSecret: client.clientSecret,
		scopes: [...scopes],
	};
	if (tokenData) data.oauthTokenData = tokenData;
	return { id, name, type: 'partnerPayrollOAuth2Api', data };
}

/**
 * The Partner API credential: one row per company of `companies` (`{companyId, label, token}`), each token
 * stored bound to its company as `COMPANYID:token`, as the package reads it. `client` only where its tokens
 * were issued to that client (the credential Test then checks it).
 */
function partnerCredential({ id, name, sandbox, companies, client }) {
	return {
		id,
		name,
		type: 'partnerPayrollPartnerApi',
		data: {
			baseUrl: sandbox.apiBaseUrl,
			authServerUrl: sandbox.authServerUrl,
			clientId: client?.clientId ?? '',
			clientSecret: client?.clientSecret ?? '',
			companies: {
				company: companies.map(({ companyId, label, token }) => ({ companyId, label, accessToken: `${companyId}:${token}` })),
			},
		},
	};
}

module.exports = { ALL_SCOPES, DEFAULT_CLIENT, accessTokenCredential, oauth2Credential, partnerCredential };
