'use strict';
// What the node promises about writes, redirects and items, shown inside a real n8n (imported workflows
// run by `n8n execute` and `n8n execute-batch`, beside `n8n start`, whose public API serves the record of
// billing declarations) against the sandbox's fault injection: Retry On Fail never
// records a declaration twice, a batch of declarations is checked before any is sent and stops at the
// first refusal saying what was recorded, the bearer token does not follow a redirect to another origin,
// and every output item is paired with its input item, so `$('…').item` and Continue On Fail work
// downstream.
const {
	ensureN8nInstalled,
	createInstance,
	startTestSandbox,
	ensurePayrollCompleted,
	accessTokenCredential,
	ALL_SCOPES,
	partnerPayrollNode,
	chainWorkflow,
	nodeItems,
	executionError,
	binaryBytes,
	sha256,
	sandboxControl,
	listRequests,
	ofCompany,
	billingRecordCredential,
	withBillingRecord,
	connectBillingRecord,
} = require('../lib');

jest.setTimeout(180_000);

const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
const FR = 'FR1001';
const GB = 'GB3001';
const MONTH = '202610'; // completed for every seeded company
const NEXT_MONTH = '202611'; // completed in beforeAll
const NODE = 'Partner Payroll';
const BILLING_PATH = `/api/v1/companies/${FR}/billing-declarations`;
const PAYMENT_FILE_PATH = `/api/v1/companies/${FR}/payment-files`;

let instance;
let sandbox;
let credential;
// Billing Declaration → Create keeps its record of declarations in this n8n's Data Tables.
const N8N_API = billingRecordCredential({ id: 'ppPromisesN8nApi' });

// ---- workflows ------------------------------------------------------------------------------------

/** A Code node named 'Code' that outputs one item per record of `records`. */
const codeNode = (records) => ({
	name: 'Code',
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	parameters: { jsCode: `return ${JSON.stringify(records.map((json) => ({ json })))};` },
});

/** A Set node (fields only, every value an expression) named `name`. */
const setNode = (name, fields) => ({
	name,
	type: 'n8n-nodes-base.set',
	typeVersion: 3.4,
	parameters: {
		assignments: {
			assignments: Object.entries(fields).map(([field, value], index) => ({
				id: `${name}-${index}`,
				name: field,
				value,
				type: 'string',
			})),
		},
		options: {},
	},
});

/** An IF node whose true branch (output 0, the one chainWorkflow connects) takes items with a non-empty `error`. */
const hasErrorNode = () => ({
	name: 'Has error',
	type: 'n8n-nodes-base.if',
	typeVersion: 2,
	parameters: {
		conditions: {
			options: { caseSensitive: true, leftValue: '', typeValidation: 'loose' },
			conditions: [
				{
					id: 'has-error',
					leftValue: '={{ $json.error }}',
					rightValue: '',
					operator: { type: 'string', operation: 'notEmpty', singleValue: true },
				},
			],
			combinator: 'and',
		},
		options: {},
	},
});

/** Billing Declaration → Create; `product` names the declarations of one case in the sandbox's store. */
const createDeclaration = ({ companyId = FR, month = MONTH, product }) =>
	withBillingRecord(
		partnerPayrollNode(
			NODE,
			{
				resource: 'billingDeclaration',
				operation: 'create',
				companyId,
				monthOfApplication: month,
				quantityByProducts: { product: [{ productName: product, quantity: 7 }] },
			},
			credential,
		),
		N8N_API,
	);

const WORKFLOWS = {
	retryOnFail: () =>
		chainWorkflow('prRetryOnFail1', 'Retry On Fail on a lost answer', [
			{ ...createDeclaration({ product: 'retry-on-fail' }), retryOnFail: true, maxTries: 3, waitBetweenTries: 0 },
		]),
	badSecondMonth: () =>
		chainWorkflow('prBadSecondMonth2', '3 declarations, a bad 2nd month', [
			codeNode([{ month: '202610' }, { month: '2026-13' }, { month: '202612' }]),
			createDeclaration({ month: '={{ $json.month }}', product: 'bad-second-month' }),
		]),
	refusedSecond: () =>
		chainWorkflow('prRefusedSecond3', '3 declarations, the 2nd refused', [
			codeNode([
				{ companyId: FR, month: '202610' },
				{ companyId: GB, month: '202611' },
				{ companyId: FR, month: '202612' },
			]),
			createDeclaration({ companyId: '={{ $json.companyId }}', month: '={{ $json.month }}', product: 'refused-second' }),
		]),
	crossOriginRedirect: () =>
		chainWorkflow('prCrossOrigin4', 'Payment file redirected to signed storage', [
			partnerPayrollNode(NODE, { resource: 'payroll', operation: 'downloadPaymentFile', companyId: FR, month: MONTH }, credential),
		]),
	pairedEntries: () =>
		chainWorkflow('prPairedEntries5', 'Entries of 2 months, paired downstream', [
			codeNode([
				{ companyId: FR, month: MONTH },
				{ companyId: FR, month: NEXT_MONTH },
			]),
			partnerPayrollNode(
				NODE,
				{ resource: 'accounting', operation: 'getEntries', companyId: '={{ $json.companyId }}', month: '={{ $json.month }}' },
				credential,
			),
			setNode('Entry with its month', {
				accountId: "={{ $('Partner Payroll').item.json.accountId }}",
				operationDate: "={{ $('Partner Payroll').item.json.operationDate }}",
				month: "={{ $('Code').item.json.month }}",
			}),
		]),
	continueOnFail: () =>
		chainWorkflow('prContinueOnFail6', 'Continue On Fail, then IF on the error', [
			codeNode([{ month: MONTH }, { month: '2026-13' }]),
			{
				...partnerPayrollNode(NODE, { resource: 'payroll', operation: 'getStatus', companyId: FR, month: '={{ $json.month }}' }, credential),
				onError: 'continueRegularOutput',
			},
			hasErrorNode(),
			setNode('Failed month', { month: "={{ $('Code').item.json.month }}", error: '={{ $json.error }}' }),
		]),
};

// ---- the sandbox's side ---------------------------------------------------------------------------

/** Declarations the sandbox stored for FR1001 with the product name of one case. */
async function declarationsOf(product) {
	const stored = await sandboxControl(sandbox, 'GET', `/billing-declarations?companyId=${FR}`);
	return stored.filter((declaration) => declaration.quantityByProducts?.some((item) => item.productName === product));
}

const requestsTo = async (method, apiPath) =>
	(await listRequests(sandbox)).filter((request) => request.method === method && request.path === apiPath);

const storageRequests = () => sandboxControl(sandbox, 'GET', '/storage/requests');

beforeAll(async () => {
	await ensureN8nInstalled();
	sandbox = await startTestSandbox();
	await ensurePayrollCompleted(sandbox, FR, NEXT_MONTH);
	instance = await createInstance({ prefix: 'n8n-e2e-promises-' });
	// An OAuth token of the default client (a partner application) in an access-token credential:
	// billing declarations are for partners only.
	credential = accessTokenCredential({
		id: 'ppPromisesFR01',
		name: 'Partner token FR',
		sandbox,
		accessToken: sandbox.issueToken({ companyId: FR, scopes: ALL_SCOPES, kind: 'oauth' }).access_token,
	});
	await instance.cli.importCredentials([credential, N8N_API]);
	// One import for every workflow of the file: each n8n CLI process costs seconds.
	await instance.cli.importWorkflows(Object.values(WORKFLOWS).map((workflow) => workflow()));
	await connectBillingRecord(instance, N8N_API);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.close();
});

/** No fault left, empty request logs (API and signed storage). */
async function clearSandboxLogs() {
	await sandboxControl(sandbox, 'DELETE', '/faults');
	await sandboxControl(sandbox, 'DELETE', '/requests');
	await sandboxControl(sandbox, 'DELETE', '/storage/requests');
}

// ---- writes: the execution fails, one `n8n execute` each (the error is in the run data it prints) -----

describe('writes', () => {
	const execute = (name) => instance.cli.executeWorkflow(WORKFLOWS[name]().id);

	beforeEach(clearSandboxLogs);

	test('Retry On Fail after a lost answer (502 once recorded): 1 declaration, 1 POST, the retry refuses to send it again', async () => {
		await sandboxControl(sandbox, 'POST', '/faults', {
			type: 'status',
			status: 502,
			afterEffect: true,
			method: 'POST',
			path: BILLING_PATH,
		});

		const { ok, run } = await execute('retryOnFail');

		expect(ok).toBe(false);
		const error = executionError(run);
		expect(error.message).toBe(
			'The billing declaration was not sent again: it may have been recorded earlier in this execution',
		);
		expect(nodeItems(run, NODE)).toEqual([]);
		const declarations = await declarationsOf('retry-on-fail');
		expect(declarations).toHaveLength(1);
		expect(declarations[0]).toMatchObject({
			companyId: FR,
			monthOfApplication: MONTH,
			quantityByProducts: [{ productName: 'retry-on-fail', quantity: 7 }],
		});
		const posts = await requestsTo('POST', BILLING_PATH);
		expect(posts).toHaveLength(1);
		expect(posts[0]).toMatchObject({ status: 502, fault: 'status' });
	});

	test('3 declarations with a bad 2nd month: none sent, the error names item 1', async () => {
		const { ok, run } = await execute('badSecondMonth');

		expect(ok).toBe(false);
		const error = executionError(run);
		expect(`${error.message} ${error.description}`).toMatch(/item 1\b/);
		expect(`${error.message} ${error.description}`).toMatch(/2026-13/);
		expect(nodeItems(run, NODE)).toEqual([]);
		expect(await declarationsOf('bad-second-month')).toEqual([]);
		expect(await requestsTo('POST', BILLING_PATH)).toEqual([]);
	});

	test('3 declarations, the service refuses the 2nd (another company, 404): the 1st recorded, the 3rd not sent, and the error says so', async () => {
		const { ok, run } = await execute('refusedSecond');

		expect(ok).toBe(false);
		const error = executionError(run);
		expect(error.httpCode).toBe('404');
		expect(error.message).toMatch(/^Not found/);
		expect(error.description).toContain('Recorded before it: item 0 (202610).');
		expect(error.description).toContain('Not sent: item 2 (202612); run the node again for these items only.');
		const declarations = await declarationsOf('refused-second');
		expect(declarations.map((declaration) => declaration.monthOfApplication)).toEqual(['202610']);
		// The 1st to FR1001, the 2nd to GB3001 (refused), the 3rd never sent.
		expect(await requestsTo('POST', BILLING_PATH)).toHaveLength(1);
		expect(await requestsTo('POST', `/api/v1/companies/${GB}/billing-declarations`)).toEqual([
			expect.objectContaining({ status: 404 }),
		]);
	});
});

// ---- redirects and items: the executions succeed, all in one `n8n execute-batch` ------------------
// `n8n execute` of n8n 2.40.7 (Node.js 24) sometimes crashes (SIGSEGV, SIGILL) while exiting after a
// successful run, even of a workflow with a NoOp node only, so its exit code cannot tell a success;
// `n8n execute-batch` writes each run's data and its summary of errors.

describe('redirects and items', () => {
	const SUCCEEDING = ['crossOriginRedirect', 'pairedEntries', 'continueOnFail'];
	let batch;
	const runOf = (name) => batch.runs[WORKFLOWS[name]().id];

	beforeAll(async () => {
		await clearSandboxLogs();
		// Only the payment file of the redirect case is redirected: no other workflow asks for it.
		await sandboxControl(sandbox, 'POST', '/faults', {
			type: 'redirect',
			status: 302,
			to: 'other',
			method: 'GET',
			path: PAYMENT_FILE_PATH,
		});
		batch = await instance.cli.executeBatch(SUCCEEDING.map((name) => WORKFLOWS[name]().id));
	}, SETUP_TIMEOUT_MS);

	test('every workflow succeeds', () => {
		expect(batch.errors).toEqual([]);
		for (const name of SUCCEEDING) {
			expect(runOf(name)).toBeDefined();
			expect(executionError(runOf(name))).toBeUndefined();
		}
	});

	test('a 302 from the API to signed storage on another origin: followed without the token, every byte kept', async () => {
		const run = runOf('crossOriginRedirect');
		const [item, ...more] = nodeItems(run, NODE);
		expect(more).toEqual([]);
		expect(item.binary.data.fileName).toBe(`payment-file-${FR}-${MONTH}`);
		const expected = sandbox.seed.paymentFile(FR, MONTH);
		const bytes = binaryBytes(instance.userFolder, item.binary.data);
		expect(bytes.length).toBe(expected.length);
		expect(sha256(bytes)).toBe(sha256(expected));
		// The API answered the redirect once; the storage origin got the file request, without Authorization.
		expect(await requestsTo('GET', PAYMENT_FILE_PATH)).toEqual([expect.objectContaining({ status: 302, fault: 'redirect' })]);
		expect(await storageRequests()).toEqual([
			expect.objectContaining({ method: 'GET', originalPath: PAYMENT_FILE_PATH, authorization: null, status: 200 }),
		]);
	});

	test("entries of 2 input items: every entry paired with its item, so $('Partner Payroll').item and $('Code').item give its own month", async () => {
		const run = runOf('pairedEntries');
		const byMonth = [MONTH, NEXT_MONTH].map((month) => sandbox.seed.accountingEntries(FR, month));
		expect(byMonth[0].length).toBeGreaterThan(1);
		expect(byMonth[1].length).toBeGreaterThan(1);

		const entries = nodeItems(run, NODE);
		expect(entries.map((entry) => entry.json)).toEqual(ofCompany(FR, byMonth.flat()));
		expect(entries.map((entry) => entry.pairedItem)).toEqual(
			byMonth.flatMap((monthEntries, input) => monthEntries.map(() => ({ item: input }))),
		);

		const output = nodeItems(run, 'Entry with its month');
		expect(output.map((item) => item.json)).toEqual(
			[MONTH, NEXT_MONTH].flatMap((month, input) =>
				byMonth[input].map((entry) => ({ accountId: entry.accountId, operationDate: entry.operationDate, month })),
			),
		);
		// The month from the Code node is the month of the entry's own operation date.
		for (const { json } of output) expect(json.operationDate.replace('-', '').slice(0, 6)).toBe(json.month);
	});

	test('Continue On Fail: the failed item goes to the true branch of IF $json.error, still paired with its input item', async () => {
		const run = runOf('continueOnFail');
		const statusItems = nodeItems(run, NODE);
		expect(statusItems).toHaveLength(2);
		expect(statusItems[0]).toMatchObject({
			json: { companyId: FR, month: MONTH, ...sandbox.seed.payrollStatus(FR, MONTH) },
			pairedItem: { item: 0 },
		});
		// The failed item, as n8n's own Continue On Fail shapes it: the message in json.error, the error
		// object beside it, paired with the item that failed.
		const MONTH_ERROR = 'Month must be a month as YYYYMM, for example 202610 (got "2026-13")';
		expect(statusItems[1]).toMatchObject({
			json: { error: MONTH_ERROR },
			error: { message: MONTH_ERROR, context: { itemIndex: 1 } },
			pairedItem: { item: 1 },
		});
		expect(Object.keys(statusItems[1].json)).toEqual(['error']);

		const taskData = run.data.resultData.runData['Has error'][0].data.main;
		const [trueBranch, falseBranch] = taskData;
		expect(trueBranch).toHaveLength(1);
		expect(trueBranch[0].json).toEqual({ error: MONTH_ERROR });
		expect(falseBranch.map((item) => item.json)).toEqual([statusItems[0].json]);

		expect(nodeItems(run, 'Failed month').map((item) => item.json)).toEqual([
			{ month: '2026-13', error: MONTH_ERROR },
		]);
		// No request for the bad month: it was refused before sending.
		const statusRequests = (await listRequests(sandbox)).filter((request) => request.path.includes('payroll-status'));
		expect(statusRequests.map((request) => request.query)).toEqual([expect.objectContaining({ date: MONTH })]);
	});
});
