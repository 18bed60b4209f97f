'use strict';
// Billing declarations across executions (issue 38), the same cases in every n8n of the matrix
// (test/billing-declarations.test.js) and in queue mode (test/queue/billing-declarations.test.js): the
// same workflow executed twice, a failed execution re-run, and two executions started together each
// record one declaration in the service; with Declare Again on, two. One published workflow (a webhook
// answering with the node's first item) serves every case: each declares a product of its own for FR1001.
const {
	ALL_SCOPES,
	accessTokenCredential,
	billingRecordCredential,
	chainWorkflow,
	listRequests,
	partnerPayrollNode,
	sandboxControl,
	webhookTrigger,
	withBillingRecord,
} = require('../../lib');

const FR = 'FR1001';
const MONTH = '202610';
const BILLING_PATH = `/api/v1/companies/${FR}/billing-declarations`;
const NODE = 'Declare billing';
const N8N_API = billingRecordCredential({ id: 'ppDeclarationsN8nApi' });

/** Each case declares a product of its own, by the one workflow; Declare Again as each execution asks. */
const WORKFLOW = { id: 'wfDeclarations01', path: 'billing-declarations' };
const CASES = ['twice', 'rerun', 'together'].flatMap((name) =>
	[false, true].map((declareAgain) => ({ name, declareAgain, product: `declarations-${name}${declareAgain ? '-again' : ''}` })),
);
const caseOf = (name, declareAgain) => CASES.find((one) => one.name === name && one.declareAgain === declareAgain);

/** The partner's token for FR1001 (billing declarations are for partners only). */
const partnerToken = (sandbox) =>
	accessTokenCredential({
		id: 'ppDeclarationsFR01',
		name: 'Partner token FR',
		sandbox,
		accessToken: sandbox.issueToken({ companyId: FR, scopes: ALL_SCOPES, kind: 'oauth' }).access_token,
	});

/** A webhook whose query names the product and Declare Again, answering with the node's first item. */
function declarationWorkflow(credential) {
	const create = partnerPayrollNode(
		NODE,
		{
			resource: 'billingDeclaration',
			operation: 'create',
			companyId: FR,
			monthOfApplication: MONTH,
			quantityByProducts: { product: [{ productName: '={{ $json.query.product }}', quantity: 3 }] },
			options: { declareAgain: "={{ $json.query.declareAgain === 'true' }}" },
		},
		credential,
	);
	return chainWorkflow(WORKFLOW.id, 'Billing declarations across executions', [withBillingRecord(create, N8N_API)], {
		trigger: webhookTrigger(WORKFLOW.path),
	});
}

/** The credentials to import (the n8n API one is completed by connectBillingRecord) and the workflow to publish. */
function declarationsSetup(sandbox) {
	const credential = partnerToken(sandbox);
	return { credentials: [credential, N8N_API], workflow: declarationWorkflow(credential), n8nApi: N8N_API };
}

/**
 * The cases, in a describe block of the calling suite. `context()` gives what its beforeAll set up:
 * {sandbox, url (n8n's base URL), rest (the owner's N8nRest), api (N8nPublicApi of the executions)}.
 */
function describeDeclarationsAcrossExecutions(context) {
	/** Starts an execution of the case; resolves its webhook's answer (the node's first item). */
	const execute = async ({ product, declareAgain }) => {
		const query = new URLSearchParams({ product, declareAgain: String(declareAgain) });
		const response = await fetch(`${context().url}/webhook/${WORKFLOW.path}?${query}`);
		return { status: response.status, body: await response.json().catch(() => null) };
	};
	const declarationsOf = async ({ product }) => {
		const stored = await sandboxControl(context().sandbox, 'GET', `/billing-declarations?companyId=${FR}`);
		return stored.filter((declaration) => declaration.quantityByProducts?.some((item) => item.productName === product));
	};
	/** POSTs of a declaration the service received (all cases run one after the other, logs cleared before each). */
	const posts = async () =>
		(await listRequests(context().sandbox)).filter((request) => request.method === 'POST' && request.path === BILLING_PATH);
	/** The workflow's executions, newest first, once all have finished (the cases run one after the other). */
	const executions = () => context().api.finishedExecutions(WORKFLOW.id, 1);
	const expectDeclared = (item, { product }) =>
		expect(item).toMatchObject({
			declared: true,
			companyId: FR,
			monthOfApplication: MONTH,
			quantityByProducts: [{ productName: product, quantity: 3 }],
		});

	beforeEach(async () => {
		await sandboxControl(context().sandbox, 'DELETE', '/faults');
		await sandboxControl(context().sandbox, 'DELETE', '/requests');
	});

	test('the same workflow executed twice: one declaration, the second execution answers the first confirmation with alreadyDeclared', async () => {
		const once = caseOf('twice', false);
		const first = await execute(once);
		const second = await execute(once);

		expect(first.status).toBe(200);
		expectDeclared(first.body, once);
		expect(first.body.alreadyDeclared).toBeUndefined();
		expect(second.status).toBe(200);
		expect(first.body.recordWarning).toBeUndefined();
		const [, firstExecution] = await executions();
		expect(second.body).toMatchObject({
			...first.body,
			alreadyDeclared: true,
			declaredAt: expect.any(String),
			declaredByExecution: String(firstExecution.id),
		});
		expect(await declarationsOf(once)).toHaveLength(1);
		expect(await posts()).toHaveLength(1);
	});

	test('the same workflow executed twice with Declare Again: two declarations', async () => {
		const again = caseOf('twice', true);
		const answers = [await execute(again), await execute(again)];

		for (const answer of answers) {
			expect(answer.status).toBe(200);
			expectDeclared(answer.body, again);
			expect(answer.body.alreadyDeclared).toBeUndefined();
		}
		expect(await declarationsOf(again)).toHaveLength(2);
		expect(await posts()).toHaveLength(2);
	});

	/** Executes the case with the service's answer to its declaration lost (502 after recording it). */
	async function failedExecution(one) {
		await sandboxControl(context().sandbox, 'POST', '/faults', {
			type: 'status',
			status: 502,
			afterEffect: true,
			method: 'POST',
			path: BILLING_PATH,
		});
		const failed = await execute(one);
		expect(failed.status).toBeGreaterThanOrEqual(500);
		const [execution] = await executions();
		expect(execution.status).toBe('error');
		return execution;
	}

	/** The executions of a case after the retry: the failed one and its retry, each with its run data. */
	async function retried(failed) {
		await context().rest.retryExecution(failed.id);
		const retry = (await executions()).find((execution) => String(execution.retryOf) === String(failed.id));
		expect(retry).toBeDefined();
		return retry;
	}

	test('a failed execution (the answer to its declaration lost) re-run: one declaration, the re-run refuses to send it blindly and says how to declare again', async () => {
		const once = caseOf('rerun', false);
		const failed = await failedExecution(once);
		const retry = await retried(failed);

		expect(retry.status).toBe('error');
		const error = retry.data.resultData.error;
		expect(error.message).toMatch(/was not sent/);
		expect(`${error.message} ${error.description ?? ''}`).toMatch(/Declare Again/);
		expect(await declarationsOf(once)).toHaveLength(1);
		expect(await posts()).toHaveLength(1);
	});

	test('a failed execution re-run with Declare Again: two declarations', async () => {
		const again = caseOf('rerun', true);
		const failed = await failedExecution(again);
		const retry = await retried(failed);

		expect(retry.status).toBe('success');
		expect(await declarationsOf(again)).toHaveLength(2);
		expect(await posts()).toHaveLength(2);
	});

	/** Both executions of the case started at once; the service takes a second to answer a declaration. */
	async function together(one) {
		await sandboxControl(context().sandbox, 'POST', '/faults', {
			type: 'delay',
			delayMs: 1_000,
			count: 2,
			method: 'POST',
			path: BILLING_PATH,
		});
		return Promise.all([execute(one), execute(one)]);
	}

	test('two executions started together: one declaration; the one that waited answers the first confirmation with alreadyDeclared', async () => {
		const once = caseOf('together', false);
		const answers = await together(once);

		for (const answer of answers) expect(answer.status).toBe(200);
		const fresh = answers.filter((answer) => answer.body.alreadyDeclared === undefined);
		const repeated = answers.filter((answer) => answer.body.alreadyDeclared === true);
		expect(fresh).toHaveLength(1);
		expect(repeated).toHaveLength(1);
		expectDeclared(fresh[0].body, once);
		expect(repeated[0].body).toMatchObject({ ...fresh[0].body, alreadyDeclared: true });
		expect(await declarationsOf(once)).toHaveLength(1);
		expect(await posts()).toHaveLength(1);
	});

	test('two executions started together with Declare Again: two declarations', async () => {
		const again = caseOf('together', true);
		const answers = await together(again);

		for (const answer of answers) {
			expect(answer.status).toBe(200);
			expectDeclared(answer.body, again);
			expect(answer.body.alreadyDeclared).toBeUndefined();
		}
		expect(await declarationsOf(again)).toHaveLength(2);
		expect(await posts()).toHaveLength(2);
	});
}

module.exports = { declarationsSetup, describeDeclarationsAcrossExecutions };
