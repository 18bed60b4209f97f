'use strict';
// What the example workflows (real-n8n/examples) expect to find: their credentials, by id, and a completed
// payroll "last month". Shared by `npm start` and the test that runs the examples.
const { DEFAULT_CLIENT, accessTokenCredential, oauth2Credential } = require('./credentials');

// One access-token credential per company the examples use.
const TOKEN_CREDENTIALS = Object.freeze([
	{ id: 'ppSandboxFR1001', companyId: 'FR1001' },
	{ id: 'ppSandboxGB3001', companyId: 'GB3001' },
]);
const OAUTH2_CREDENTIAL = Object.freeze({ id: 'ppSandboxOAuth2', name: 'Partner Payroll sandbox OAuth2 (n8n-local)' });

/**
 * The examples' credentials. `tokenOf(companyId)` gives the access token of a company; `oauthTokenData`
 * makes the OAuth2 one connected (the demo leaves it to the user's "Connect").
 */
function exampleCredentials(sandbox, tokenOf, { oauthTokenData } = {}) {
	const credentials = TOKEN_CREDENTIALS.map(({ id, companyId }) =>
		accessTokenCredential({
			id,
			name: `Partner Payroll sandbox token (${companyId})`,
			sandbox,
			accessToken: tokenOf(companyId),
		}),
	);
	credentials.push(
		oauth2Credential({ ...OAUTH2_CREDENTIAL, sandbox, client: DEFAULT_CLIENT, tokenData: oauthTokenData }),
	);
	return credentials;
}

/** YYYYMM of the month before `now` (UTC), as the examples compute it with $now. */
function lastMonth(now = new Date()) {
	const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
	return `${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The sandbox completes payroll months up to 202610 only; complete `month` whatever today is. */
async function ensurePayrollCompleted(sandbox, companyId, month) {
	if (sandbox.seed.payrollStatus(companyId, month).status === 'completed') return;
	const response = await fetch(`${sandbox.url}/_sandbox/payroll-status`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ companyId, month, status: 'completed' }),
	});
	if (!response.ok) throw new Error(`The sandbox refused to complete ${month}: ${await response.text()}`);
}

module.exports = { TOKEN_CREDENTIALS, OAUTH2_CREDENTIAL, exampleCredentials, lastMonth, ensurePayrollCompleted };
