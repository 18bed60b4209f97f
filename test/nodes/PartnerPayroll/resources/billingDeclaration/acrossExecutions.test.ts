import { createRunExecutionData, type IDataObject, type INodeParameters } from 'n8n-workflow';

import { RECORD_TABLE_NAME } from '../../../../../nodes/PartnerPayroll/resources/billingDeclaration/dataTable';
import { FAKE_N8N_API_KEY } from '../../../../support/fake-data-tables';
import { SandboxSession, failureOf, runPartnerPayroll } from '../../../../support/fixtures';

// Issue 38: a billing declaration is sent once across executions. Each test runs the node as separate
// executions against the sandbox, with the record in (a fake of) n8n's Data Tables reached through
// the Partner Payroll n8n API credential.

jest.setTimeout(60_000);

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());

const COMPANY = 'FR1001';
const DECLARATIONS = '/api/v1/companies/FR1001/billing-declarations';

const declare = (quantity = 12, options: INodeParameters = {}): INodeParameters => ({
	resource: 'billingDeclaration',
	operation: 'create',
	monthOfApplication: '2026-10',
	quantityByProducts: { product: [{ productName: 'Payroll', quantity }] },
	options,
});

/** One execution of the node (with one token for the company: a new token revokes the one before). */
async function run(
	parameters: INodeParameters,
	items?: Array<{ json: IDataObject }>,
	runExecutionData = createRunExecutionData(),
) {
	token ??= await session.token(COMPANY);
	return await runPartnerPayroll(parameters, session.accessToken(token), {
		items,
		runExecutionData,
	});
}
let token: string | undefined;
beforeEach(() => (token = undefined));

/** Declarations the service stored for the company. */
const stored = async () =>
	(await session.control('GET', `/billing-declarations?companyId=${COMPANY}`)) as IDataObject[];

/** POSTs of declarations the service received. */
const posts = async () =>
	(await session.requests()).filter(
		(request) => request.method === 'POST' && request.path === DECLARATIONS,
	);

describe('billing declarations across executions', () => {
	it('a second execution with the same values gets the first confirmation, says when and by which execution, and sends nothing', async () => {
		const [first] = await run(declare());
		expect(first.json).toMatchObject({
			declared: true,
			companyId: COMPANY,
			monthOfApplication: '202610',
		});
		expect(first.json.alreadyDeclared).toBeUndefined();

		const [again] = await run(declare());
		expect(again.json).toMatchObject({
			...first.json,
			alreadyDeclared: true,
			declaredByExecution: expect.any(String),
		});
		expect(Date.parse(String(again.json.declaredAt))).not.toBeNaN();
		expect(await stored()).toHaveLength(1);
		expect(await posts()).toHaveLength(1);
	});

	it('the same products typed in another order are the same declaration', async () => {
		const products = (names: string[]) => ({
			...declare(),
			quantityByProducts: { product: names.map((productName) => ({ productName, quantity: 3 })) },
		});
		await run(products(['Payroll', 'Meal vouchers']));
		const [again] = await run(products(['Meal vouchers', 'Payroll']));
		expect(again.json.alreadyDeclared).toBe(true);
		expect(await stored()).toHaveLength(1);
	});

	it('Declare Again sends it anyway, and the record keeps the newest confirmation', async () => {
		await run(declare());
		const [again] = await run(declare(12, { declareAgain: true }));
		expect(again.json).toMatchObject({ declared: true });
		expect(again.json.alreadyDeclared).toBeUndefined();
		expect(await stored()).toHaveLength(2);
		const [third] = await run(declare());
		expect(third.json.alreadyDeclared).toBe(true);
		expect(await stored()).toHaveLength(2);
	});

	it('the same month with other quantities is sent (a correction) and the item says what the earlier declaration held', async () => {
		const [first] = await run(declare(12));
		const [correction] = await run(declare(13));
		expect(correction.json).toMatchObject({
			declared: true,
			quantityByProducts: [{ productName: 'Payroll', quantity: 13 }],
		});
		expect(correction.json.earlierDeclarationsOfMonth).toEqual([
			{
				declaration: {
					companyId: COMPANY,
					monthOfApplication: '202610',
					quantityByProducts: first.json.quantityByProducts,
				},
				declaredAt: expect.any(String),
				executionId: expect.any(String),
			},
		]);
		expect(await stored()).toHaveLength(2);
	});

	it('a declaration whose answer was lost is not sent again by a later execution, which says how to declare again on purpose', async () => {
		await session.injectFault({
			method: 'POST',
			path: DECLARATIONS,
			type: 'reset',
			afterEffect: true,
		});
		await failureOf(run(declare()));
		expect(await stored()).toHaveLength(1);
		await session.clearRequests();

		const error = await failureOf(run(declare()));
		expect(error.message).toMatch(
			/^The billing declaration was not sent: the same declaration was sent by execution \S+ and its answer never came/,
		);
		expect(error.description).toMatch(/turn on Declare Again/);
		expect(await posts()).toHaveLength(0);

		const [again] = await run(declare(12, { declareAgain: true }));
		expect(again.json.declared).toBe(true);
		expect(await stored()).toHaveLength(2);
	});

	it('a declaration the service refused is forgotten: a later execution sends it', async () => {
		await session.injectFault({ method: 'POST', path: DECLARATIONS, type: 'status', status: 400 });
		await failureOf(run(declare()));
		expect(await stored()).toHaveLength(0);
		const [sent] = await run(declare());
		expect(sent.json).toMatchObject({ declared: true });
		expect(sent.json.alreadyDeclared).toBeUndefined();
		expect(await stored()).toHaveLength(1);
	});

	it('an execution that ended (a crash) while sending leaves a declaration that is never sent blindly', async () => {
		const [first] = await run(declare());
		// What a crash between the POST and the record's update leaves: the row still "sending".
		const row = session.dataTables.declarations()[0];
		row.state = 'sending';
		session.dataTables.executions.set(String(row.executionId), 'crashed');
		expect(first.json.declared).toBe(true);
		const error = await failureOf(run(declare()));
		expect(error.message).toMatch(/its answer never came, so the service may have recorded it/);
		expect(await stored()).toHaveLength(1);
	});

	it('two executions declaring the same values at the same moment send one POST; the other gets the confirmation', async () => {
		token = await session.token(COMPANY);
		const outcomes = await Promise.allSettled([run(declare()), run(declare())]);
		expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled']);
		const items = outcomes.map(
			(outcome) => (outcome as PromiseFulfilledResult<Array<{ json: IDataObject }>>).value[0].json,
		);
		expect(items.filter((item) => item.alreadyDeclared === true)).toHaveLength(1);
		expect(await stored()).toHaveLength(1);
		expect(await posts()).toHaveLength(1);
	});

	it('several items in one execution: the one declared by an earlier execution is not sent, the others are', async () => {
		await run(declare(12));
		const items = [12, 20, 30].map((quantity) => ({ json: { quantity } }));
		const output = await run(
			{
				...declare(),
				quantityByProducts: {
					product: [{ productName: 'Payroll', quantity: '={{ $json.quantity }}' }],
				},
			},
			items,
		);
		expect(output.map((item) => item.json.alreadyDeclared ?? false)).toEqual([true, false, false]);
		expect(await stored()).toHaveLength(3);
	});

	it('the record holds no token, and is one table of that name in n8n', async () => {
		await run(declare());
		const tables = [...session.dataTables.tables.values()];
		expect(tables.map((table) => table.name)).toEqual([RECORD_TABLE_NAME]);
		const everything = JSON.stringify(tables);
		expect(everything).not.toContain(token!);
		expect(everything).not.toContain(FAKE_N8N_API_KEY);
	});

	it('a table of that name with other columns is not the record: nothing is sent, and the error says how to declare on purpose', async () => {
		session.dataTables.tables.set('other', {
			name: RECORD_TABLE_NAME,
			columns: ['name', 'email'],
			rows: [],
		});
		const error = await failureOf(run(declare()));
		expect(error.message).toMatch(/has no column kind, holder/);
		expect(error.description).toMatch(/turn on Declare Again/);
		expect(await stored()).toHaveLength(0);
	});

	it("n8n's API unreachable: nothing is sent, and the error names the n8n API credential", async () => {
		const error = await failureOf(
			runPartnerPayroll(declare(), {
				...session.accessToken(await session.token(COMPANY)),
				partnerPayrollN8nApi: { url: 'http://127.0.0.1:9', apiKey: FAKE_N8N_API_KEY },
			}),
		);
		expect(error.message).toMatch(
			/n8n's public API could not be reached.*Partner Payroll n8n API credential/,
		);
		expect(await stored()).toHaveLength(0);
	});

	it('a lock left by an execution that crashed while holding it is freed once n8n says that execution ended', async () => {
		await run(declare(12));
		const table = [...session.dataTables.tables.values()][0];
		const lock = table.rows.find((row) => row.kind === 'lock')!;
		lock.holder = 'crashed-execution/1';
		session.dataTables.executions.set('crashed-execution', 'crashed');
		const [sent] = await run(declare(20));
		expect(sent.json.declared).toBe(true);
		expect(await stored()).toHaveLength(2);
	});
});

describe("n8n's 404 for an execution: deleted after it ended, or of a workflow the key's user cannot read", () => {
	/** The record after one declaration; the lock and its rows, to play another execution's part. */
	async function recordAfterOneDeclaration() {
		await run(declare(12));
		const table = [...session.dataTables.tables.values()][0];
		const lock = table.rows.find((row) => row.kind === 'lock')!;
		const declared = table.rows.find((row) => row.kind === 'declaration')!;
		await session.clearRequests();
		return { table, lock, declared };
	}

	it('a lock held by a running execution the key cannot see is not taken: the declaration that execution sends is not sent again', async () => {
		const { table, lock, declared } = await recordAfterOneDeclaration();
		// Another execution, in a workflow the key's user cannot read, holds the lock to send the same declaration.
		table.rows.splice(table.rows.indexOf(declared), 1);
		lock.holder = 'hidden-execution/hidden-workflow/1';
		session.dataTables.executions.set('hidden-execution', 'hidden');
		session.dataTables.unreadableWorkflows.add('hidden-workflow');
		// It finishes (declared, lock freed) while this execution waits for the lock.
		session.dataTables.onFirstRequest.set('/api/v1/workflows/hidden-workflow', () => {
			table.rows.push({ ...declared, id: 1_000, executionId: 'hidden-execution' });
			lock.holder = 'free';
		});

		const [item] = await run(declare(12));
		expect(item.json).toMatchObject({
			alreadyDeclared: true,
			declaredByExecution: 'hidden-execution',
		});
		expect(await posts()).toHaveLength(0);
	});

	it('a lock left by a crashed execution that n8n then deleted is freed, since the key reads its workflow', async () => {
		const { lock } = await recordAfterOneDeclaration();
		lock.holder = 'deleted-execution/test-workflow/1';
		session.dataTables.executions.set('deleted-execution', 'deleted');
		const [sent] = await run(declare(20));
		expect(sent.json.declared).toBe(true);
		expect(await posts()).toHaveLength(1);
	});

	it('a declaration "sending" by an execution the key cannot see is not sent, and the error says why', async () => {
		const { declared } = await recordAfterOneDeclaration();
		declared.state = 'sending';
		declared.executionId = 'hidden-execution';
		session.dataTables.executions.set('hidden-execution', 'hidden');
		const error = await failureOf(run(declare(12)));
		expect(error.message).toMatch(
			/sent by execution hidden-execution, which n8n's API does not show to the key of the Partner Payroll n8n API credential \(n8n deleted it after it ended, or it runs in a workflow the key's user cannot read\)/,
		);
		expect(await posts()).toHaveLength(0);
	});
});

describe("n8n's retry of a failed execution: a new execution that starts with the failed one's node context", () => {
	/** An execution whose declaration's answer was lost, then its retry (n8n copies the context over). */
	async function retryOfLostAnswer(options: INodeParameters = {}) {
		await session.injectFault({
			method: 'POST',
			path: DECLARATIONS,
			type: 'reset',
			afterEffect: true,
		});
		const failed = createRunExecutionData();
		await failureOf(run(declare(12, options), undefined, failed));
		expect(await stored()).toHaveLength(1);
		await session.clearRequests();
		const retry = createRunExecutionData();
		retry.executionData!.contextData = structuredClone(failed.executionData!.contextData);
		return retry;
	}

	it('the lost declaration is not sent blindly, and the error says how to declare again on purpose', async () => {
		const error = await failureOf(run(declare(), undefined, await retryOfLostAnswer()));
		expect(error.message).toMatch(
			/^The billing declaration was not sent: the same declaration was sent by execution \S+ and its answer never came/,
		);
		expect(error.description).toMatch(/turn on Declare Again/);
		expect(await posts()).toHaveLength(0);
	});

	it('with Declare Again, the retry sends it again', async () => {
		const options = { declareAgain: true };
		const [again] = await run(declare(12, options), undefined, await retryOfLostAnswer(options));
		expect(again.json.declared).toBe(true);
		expect(await posts()).toHaveLength(1);
		expect(await stored()).toHaveLength(2);
	});
});
