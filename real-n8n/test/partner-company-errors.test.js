'use strict';
// With many companies, every item says which company: 300 companies of the sandbox in one Partner API
// credential, one of them with a revoked token, one `n8n execute` of Code (one item per company) →
// Partner Payroll (Company → Get of the item's company, Continue On Fail). The revoked company's item
// names the company and its label in `json.error`; the 299 others are their companies' records, each
// with its company and label.
const {
	ALL_SCOPES,
	DEFAULT_CLIENT,
	chainWorkflow,
	createInstance,
	ensureN8nInstalled,
	executionError,
	nodeItems,
	partnerCredential,
	partnerPayrollNode,
	sandboxControl,
	startTestSandbox,
} = require('../lib');

jest.setTimeout(180_000);
const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing

const WORKFLOW_ID = 'wfCompanyErrors01';
const CREDENTIAL = { id: 'ppCompanyErrors1', name: 'Partner API (company errors e2e)', type: 'partnerPayrollPartnerApi' };
const NODE = 'Partner Payroll';
const REVOKED = 'FR5010';
const labelOf = (companyId) => `Client ${companyId}`;

let instance;
let sandbox;
let companyIds;
let tokens;

/** Code (one item per company) → Company → Get of each item's company, Continue On Fail. */
function companiesWorkflow() {
	const items = companyIds.map((companyId) => ({ json: { companyId } }));
	return chainWorkflow(WORKFLOW_ID, 'Company of every item (e2e)', [
		{
			name: 'Code',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			parameters: { jsCode: `return ${JSON.stringify(items)};` },
		},
		{
			...partnerPayrollNode(NODE, { resource: 'company', operation: 'get', companyId: '={{ $json.companyId }}' }, CREDENTIAL),
			onError: 'continueRegularOutput',
		},
	]);
}

beforeAll(async () => {
	await ensureN8nInstalled();
	sandbox = await startTestSandbox({ generatedCompanies: 296 });
	const { companies } = await sandboxControl(sandbox, 'GET', '/seed');
	companyIds = companies.map((company) => company.id);
	const issued = sandbox.issueTokens(companyIds.map((companyId) => ({ companyId, scopes: [...ALL_SCOPES] })));
	tokens = issued.map(({ access_token: token }) => token);
	instance = await createInstance({ prefix: 'n8n-e2e-company-errors-' });
	await instance.cli.importCredentials([
		partnerCredential({
			...CREDENTIAL,
			sandbox,
			client: DEFAULT_CLIENT,
			companies: issued.map(({ companyId, access_token: token }) => ({ companyId, label: labelOf(companyId), token })),
		}),
	]);
	await instance.cli.importWorkflows([companiesWorkflow()]);
	await sandboxControl(sandbox, 'POST', '/tokens/revoke', { companyId: REVOKED });
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.close();
});

test('300 companies, one revoked token, Continue On Fail: its item names the company and its label, the 299 others succeed', async () => {
	expect(companyIds).toHaveLength(300);
	expect(companyIds).toContain(REVOKED);

	const { ok, run } = await instance.cli.executeWorkflow(WORKFLOW_ID);

	expect(executionError(run)).toBeUndefined();
	expect(ok).toBe(true);
	const items = nodeItems(run, NODE);
	expect(items.map((item) => item.pairedItem)).toEqual(companyIds.map((_, index) => ({ item: index })));

	// n8n writes a failed item's JSON itself ({error}): its message is what names the company.
	const failed = items.filter((item) => item.json.error !== undefined);
	expect(failed.map((item) => [item.pairedItem.item, item.json])).toEqual([
		[
			companyIds.indexOf(REVOKED),
			{ error: `Company ${REVOKED} (${labelOf(REVOKED)}): The access token is invalid or has been revoked` },
		],
	]);
	const succeeded = items.filter((item) => item.json.error === undefined);
	expect(succeeded.map((item) => item.json.companyId)).toEqual(companyIds.filter((companyId) => companyId !== REVOKED));
	for (const { json } of succeeded) {
		expect(json).toMatchObject({ companyId: json.id, companyLabel: labelOf(json.id) });
	}
	// No token in what n8n recorded of the node's run.
	const recorded = JSON.stringify(run.data.resultData.runData[NODE]);
	for (const token of tokens) expect(recorded).not.toContain(token);
});
