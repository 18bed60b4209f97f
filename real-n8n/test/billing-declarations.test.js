'use strict';
// Billing declarations across executions in each n8n of the matrix (issue 38): the record of declarations
// in this n8n's Data Tables (SQLite), reached through its public API. The cases: test/support/billing-declarations.js.
const { ensureN8nInstalled, createInstance, startTestSandbox, connectBillingRecord, N8nPublicApi } = require('../lib');
const { declarationsSetup, describeDeclarationsAcrossExecutions } = require('./support/billing-declarations');

jest.setTimeout(180_000);
const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing

let instance;
let sandbox;
let rest;
let api;

beforeAll(async () => {
	await ensureN8nInstalled();
	sandbox = await startTestSandbox();
	instance = await createInstance({ prefix: 'n8n-e2e-declarations-' });
	const { credentials, workflow, n8nApi } = declarationsSetup(sandbox);
	await instance.cli.importCredentials(credentials);
	await instance.cli.importWorkflows([workflow]);
	await instance.cli.publishWorkflow(workflow.id);
	rest = await connectBillingRecord(instance, n8nApi);
	api = new N8nPublicApi(instance.url, await rest.createApiKey('e2e-declarations-executions'));
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.close();
});

describe('billing declarations across executions', () => {
	describeDeclarationsAcrossExecutions(() => ({ sandbox, url: instance.url, rest, api }));
});
