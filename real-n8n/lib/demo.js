'use strict';
// What the example workflows (real-n8n/examples) expect to find: their credentials, by id, and a completed
// payroll "last month". Shared by `npm start` and the test that runs the examples.
const crypto = require('node:crypto');
const { DEFAULT_CLIENT, accessTokenCredential, oauth2Credential } = require('./credentials');
const { productionPath, webhookSecretCredential } = require('./webhook-trigger');

// One access-token credential per company the examples use.
const TOKEN_CREDENTIALS = Object.freeze([
	{ id: 'ppSandboxFR1001', companyId: 'FR1001' },
	{ id: 'ppSandboxGB3001', companyId: 'GB3001' },
]);
const OAUTH2_CREDENTIAL = Object.freeze({ id: 'ppSandboxOAuth2', name: 'Partner Payroll sandbox OAuth2 (n8n-local)' });

// The example with the webhook trigger (real-n8n/examples/payroll-webhook-and-poll.json): its signing-secret
// credential, and the webhook id that makes its production URL.
const DEMO_WEBHOOK = Object.freeze({
	workflowId: 'ex5PayrollWebhookAndPoll',
	webhookId: 'partner-payroll-demo',
	credential: Object.freeze({ id: 'ppSandboxWebhook', name: 'Partner Payroll sandbox webhook secret' }),
});

/** A new signing secret for the demo's sandbox endpoint, as the webhook portal would show it. */
const newDemoWebhookSecret = () => `whsec_${crypto.randomBytes(24).toString('base64')}`;

/** The production URL of the webhook example in the n8n at `n8nUrl`. */
const demoWebhookUrl = (n8nUrl) => `${n8nUrl}${productionPath(DEMO_WEBHOOK.webhookId)}`;

/**
 * The examples' credentials. `tokenOf(companyId)` gives the access token of a company; `oauthTokenData`
 * makes the OAuth2 one connected (the demo leaves it to the user's "Connect"); `webhookSigningSecret` adds
 * the webhook example's signing-secret credential.
 */
function exampleCredentials(sandbox, tokenOf, { oauthTokenData, webhookSigningSecret } = {}) {
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
	if (webhookSigningSecret) {
		credentials.push(webhookSecretCredential({ ...DEMO_WEBHOOK.credential, signingSecret: webhookSigningSecret }));
	}
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

module.exports = {
	TOKEN_CREDENTIALS,
	OAUTH2_CREDENTIAL,
	DEMO_WEBHOOK,
	newDemoWebhookSecret,
	demoWebhookUrl,
	exampleCredentials,
	lastMonth,
	ensurePayrollCompleted,
};
