'use strict';
// Billing Declaration → Create keeps its record of declarations in n8n's Data Tables, reached through n8n's
// public API with the Partner Payroll n8n API credential (a table created on first use in the API key
// user's personal project). A suite that declares therefore runs `n8n start` on its database (`n8n execute`
// and `n8n execute-batch` may run beside it) and gives the billing nodes a key with the record's scopes.
const { N8nRest } = require('./rest');

/**
 * The public-API scopes of any table the package keeps in n8n's Data Tables (the company list's lock, the
 * record of declarations): find or create it, read its rows, add one, update rows on a condition.
 */
const DATA_TABLE_SCOPES = Object.freeze([
	'dataTable:list',
	'dataTable:create',
	'dataTable:read',
	'dataTableRow:read',
	'dataTableRow:create',
	'dataTableRow:update',
]);

/**
 * The public-API scopes the record needs: its table and rows (pruned too), whether an execution has
 * ended, and whether a 404 for one means that (the key reads its workflow).
 */
const BILLING_RECORD_SCOPES = Object.freeze([...DATA_TABLE_SCOPES, 'dataTableRow:delete', 'execution:read', 'workflow:read']);

/** An n8n API credential record to import; connectBillingRecord fills in its URL and key. */
function billingRecordCredential({ id, name = 'n8n API (billing declarations record)' }) {
	return { id, name, type: 'partnerPayrollN8nApi', data: { url: '', apiKey: '' } };
}

/** `node` (partnerPayrollNode) with the n8n API credential that reaches the record. */
function withBillingRecord(node, n8nApi) {
	return { ...node, credentials: { ...node.credentials, [n8nApi.type]: { id: n8nApi.id, name: n8nApi.name } } };
}

/**
 * Starts n8n (`start`: an instance's or a queue cluster's main), signs in as its owner, creates a key
 * with the record's scopes and stores `url` and the key in the imported credential `n8nApi`. Resolves
 * the owner's REST session. Never log the key.
 */
async function connectBillingRecord({ url, start }, n8nApi, { label = 'e2e-billing-record' } = {}) {
	await start();
	const rest = new N8nRest(url);
	await rest.ensureOwner();
	const apiKey = await rest.createApiKey(label, { scopes: [...BILLING_RECORD_SCOPES] });
	await rest.updateCredential({ ...n8nApi, data: { url, apiKey } });
	return rest;
}

module.exports = { DATA_TABLE_SCOPES, BILLING_RECORD_SCOPES, billingRecordCredential, withBillingRecord, connectBillingRecord };
