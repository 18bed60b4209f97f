'use strict';
// At the service's rate limit inside a real n8n (`n8n execute` of an imported workflow): the sandbox's
// model of the limit is on (50 reads per second per client application, 429 without Retry-After, as the
// real service), and 300 items go through Payroll → Get Status with default settings and On Error →
// Continue. The package paces its own requests from the X-RateLimit-* headers, so the execution succeeds,
// no item carries an error, and the service refuses only a handful of requests (printed for the record).
const {
	ensureN8nInstalled,
	createInstance,
	startTestSandbox,
	accessTokenCredential,
	ALL_SCOPES,
	partnerPayrollNode,
	chainWorkflow,
	nodeItems,
	executionError,
	sandboxControl,
	listRequests,
} = require('../lib');

jest.setTimeout(180_000);

const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
const ITEMS = 300;
const COMPANY = 'FR1001';
const MONTH = '202610'; // completed for every seeded company
const NODE = 'Get Status';
const WORKFLOW_ID = 'wfRateLimit300';
const STATUS_PATH = `/api/v1/companies/${COMPANY}/payroll-status`;
// Far fewer than the items: the pace is learned from the first answers, so a few 429s may come before it.
const MAX_REFUSED = 16;

let instance;
let sandbox;

beforeAll(async () => {
	await ensureN8nInstalled();
	sandbox = await startTestSandbox();
	instance = await createInstance({ prefix: 'n8n-e2e-rate-limit-' });
	// An OAuth token of the default client application: the limit counts per application.
	const { access_token: accessToken } = sandbox.issueToken({ companyId: COMPANY, scopes: ALL_SCOPES, clientId: 'n8n-local' });
	const credential = accessTokenCredential({ id: 'ppRateLimit001', name: 'Token FR1001', sandbox, accessToken });
	await instance.cli.importCredentials([credential]);
	const items = {
		name: 'Items',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: { jsCode: `return Array.from({ length: ${ITEMS} }, (_, index) => ({ json: { index } }));` },
	};
	const getStatus = {
		...partnerPayrollNode(NODE, { resource: 'payroll', operation: 'getStatus', companyId: COMPANY, month: MONTH }, credential),
		onError: 'continueRegularOutput', // a failed item becomes an output item with `json.error`
	};
	await instance.cli.importWorkflows([chainWorkflow(WORKFLOW_ID, `${ITEMS} items at the rate limit`, [items, getStatus])]);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.close();
});

test(`${ITEMS} Get Status items at the service's rate limit: the execution succeeds, no item fails, few 429s`, async () => {
	expect(await sandboxControl(sandbox, 'POST', '/rate-limits', { enabled: true })).toMatchObject({ enabled: true, readsPerSecond: 50 });
	await sandboxControl(sandbox, 'DELETE', '/requests');

	const { ok, run, output } = await instance.cli.executeWorkflow(WORKFLOW_ID);
	if (!ok || executionError(run)) console.log(output.slice(-3000));
	expect(executionError(run)).toBeUndefined();
	expect(ok).toBe(true);

	const items = nodeItems(run, NODE);
	expect(items).toHaveLength(ITEMS);
	const failed = items.filter((item) => item.json.error !== undefined);
	// On failure: how many, and the distinct messages (not 300 copies of one).
	const messages = [...new Set(failed.map((item) => String(item.json.error?.message ?? item.json.error)))];
	expect({ failed: failed.length, messages }).toEqual({ failed: 0, messages: [] });
	expect(items.every((item) => item.json.status === 'completed')).toBe(true);

	const requests = (await listRequests(sandbox)).filter((request) => request.path === STATUS_PATH);
	const refused = requests.filter((request) => request.status === 429).length;
	const nodeMs = run.data.resultData.runData[NODE][0].executionTime;
	console.log(
		`${ITEMS} Get Status items at 50 reads/s in n8n ${instance.runtime.n8nVersion}: ${failed.length} failed, ` +
			`${requests.length} requests, ${refused} refused (429), node time ${nodeMs} ms ` +
			`(${(nodeMs / ((ITEMS / 50) * 1000)).toFixed(2)} × the limit's floor of ${ITEMS / 50} s)`,
	);
	expect(requests.length - refused).toBe(ITEMS);
	expect(refused).toBeLessThanOrEqual(MAX_REFUSED);
});
