import { createRunExecutionData, type INodeExecutionData } from 'n8n-workflow';

import { SandboxSession, failureOf, runPartnerPayroll } from '../../../../support/fixtures';

// A declaration is recorded at most once per execution, whatever n8n does around the node: several
// input items, Retry On Fail (the node runs again in the same execution), the same declaration twice.

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());

const DECLARATIONS_PATH = '/api/v1/companies/FR1001/billing-declarations';

/** Create with the month and company of each input item (expressions, as in a workflow). */
const createFromItems = {
	resource: 'billingDeclaration',
	operation: 'create',
	companyId: '={{ $json.companyId }}',
	monthOfApplication: '={{ $json.month }}',
	quantityByProducts: { product: [{ productName: 'Payroll', quantity: 3 }] },
};
const itemsFor = (...rows: Array<[companyId: string, month: string]>): INodeExecutionData[] =>
	rows.map(([companyId, month]) => ({ json: { companyId, month } }));

async function recorded(companyId = 'FR1001'): Promise<Array<{ monthOfApplication: string }>> {
	return (await session.control('GET', `/billing-declarations?companyId=${companyId}`)) as Array<{
		monthOfApplication: string;
	}>;
}

describe('several items', () => {
	it('a bad month in the 2nd of 3 items: nothing is sent, the error names that item', async () => {
		const token = await session.token('FR1001');
		await session.clearRequests();
		const error = await failureOf(
			runPartnerPayroll(createFromItems, session.accessToken(token), {
				items: itemsFor(['FR1001', '202610'], ['FR1001', '2026-13'], ['FR1001', '202612']),
			}),
		);
		expect(error.message).toMatch(
			/^Nothing was sent: item 1 did not pass its checks \(Month of Application must be a month as YYYYMM, for example 202610 \(got "2026-13"\)\)$/,
		);
		expect(await session.requests()).toHaveLength(0);
		expect(await recorded()).toHaveLength(0);
	});

	it('the service refusing the 2nd of 3: the 1st recorded, the 3rd not sent, the error says which', async () => {
		const token = await session.token('FR1001');
		const error = await failureOf(
			runPartnerPayroll(createFromItems, session.accessToken(token), {
				// The token sees its own company only: the service refuses GB3001 with a 404.
				items: itemsFor(['FR1001', '202610'], ['GB3001', '202611'], ['FR1001', '202612']),
			}),
		);
		expect(error.httpCode).toBe('404');
		expect(error.description).toContain('Recorded before it: item 0 (202610).');
		expect(error.description).toContain(
			'Not sent: item 2 (202612); run the node again for these items only.',
		);
		expect((await recorded()).map((declaration) => declaration.monthOfApplication)).toEqual([
			'202610',
		]);
	});

	it('a token lookup failing for the 1st item stops the batch: the next items are not sent', async () => {
		const token = await session.token('FR1001');
		await session.injectFault({ path: '/oauth/introspect', type: 'status', status: 400 });
		const error = await failureOf(
			runPartnerPayroll(createFromItems, session.accessToken(token), {
				items: itemsFor(['', '202610'], ['', '202611'], ['', '202612']),
			}),
		);
		expect(error.message).toBe('The authorization server answered HTTP 400 to the token lookup');
		expect(await recorded()).toHaveLength(0);
	});

	it('items are sent one at a time, in order', async () => {
		const token = await session.token('FR1001');
		await session.injectFault({
			path: DECLARATIONS_PATH,
			method: 'POST',
			type: 'delay',
			delayMs: 300,
		});
		const items = await runPartnerPayroll(createFromItems, session.accessToken(token), {
			items: itemsFor(['FR1001', '202610'], ['FR1001', '202611'], ['FR1001', '202612']),
		});
		expect(items.map((item) => item.json.monthOfApplication)).toEqual([
			'202610',
			'202611',
			'202612',
		]);
		// The 1st answer was held 300 ms: sent at once, the others would have been recorded first.
		expect((await recorded()).map((declaration) => declaration.monthOfApplication)).toEqual([
			'202610',
			'202611',
			'202612',
		]);
	});

	it('the same declaration in two items is recorded once; both items get its confirmation', async () => {
		const token = await session.token('FR1001');
		const items = await runPartnerPayroll(createFromItems, session.accessToken(token), {
			items: itemsFor(['FR1001', '202610'], ['FR1001', '202610']),
		});
		expect(items).toHaveLength(2);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(items.every((item) => item.json.declared === true)).toBe(true);
		expect(await recorded()).toHaveLength(1);
	});

	it('Execute Once: the first item is sent, and the node does not wait for the others', async () => {
		const token = await session.token('FR1001');
		const items = await runPartnerPayroll(createFromItems, session.accessToken(token), {
			items: itemsFor(['FR1001', '202610'], ['FR1001', '202611'], ['FR1001', '202612']),
			executeOnce: true,
		});
		expect(items.map((item) => item.json.monthOfApplication)).toEqual(['202610']);
		expect(await recorded()).toHaveLength(1);
	});

	it('Continue On Fail: each item its own outcome, the failed one paired with its input', async () => {
		const token = await session.token('FR1001');
		const items = await runPartnerPayroll(createFromItems, session.accessToken(token), {
			items: itemsFor(['FR1001', '202610'], ['FR1001', '2026-13'], ['FR1001', '202612']),
			continueOnFail: true,
		});
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[1].json.error).toMatch(/Month of Application must be a month/);
		expect(items[0].json.declared).toBe(true);
		expect(items[2].json.declared).toBe(true);
		expect(await recorded()).toHaveLength(2);
	});
});

describe('Retry On Fail: the node runs again in the same execution', () => {
	it('a declaration whose answer was lost is not sent again', async () => {
		const token = await session.token('FR1001');
		const execution = createRunExecutionData();
		await session.injectFault({
			path: DECLARATIONS_PATH,
			method: 'POST',
			type: 'status',
			status: 502,
			afterEffect: true,
		});
		const parameters = { ...createFromItems, companyId: 'FR1001', monthOfApplication: '202610' };
		const first = await failureOf(
			runPartnerPayroll(parameters, session.accessToken(token), { runExecutionData: execution }),
		);
		expect(first.message).toMatch(/^The billing declaration may have been recorded/);
		const retry = await failureOf(
			runPartnerPayroll(parameters, session.accessToken(token), { runExecutionData: execution }),
		);
		expect(retry.message).toMatch(/^The billing declaration was not sent again/);
		expect(await recorded()).toHaveLength(1);
	});

	it('a declaration recorded before the failure of another item is answered, not sent again', async () => {
		const token = await session.token('FR1001');
		const execution = createRunExecutionData();
		const items = itemsFor(['FR1001', '202610'], ['GB3001', '202611']);
		await failureOf(
			runPartnerPayroll(createFromItems, session.accessToken(token), {
				items,
				runExecutionData: execution,
			}),
		);
		// The retry with the 2nd item fixed: the 1st comes from this execution's record.
		const fixed = itemsFor(['FR1001', '202610'], ['FR1001', '202611']);
		const output = await runPartnerPayroll(createFromItems, session.accessToken(token), {
			items: fixed,
			runExecutionData: execution,
		});
		expect(output.map((item) => item.json.monthOfApplication)).toEqual(['202610', '202611']);
		expect((await recorded()).map((declaration) => declaration.monthOfApplication)).toEqual([
			'202610',
			'202611',
		]);
	});

	it('a refused declaration (4xx) may be sent again: nothing was recorded', async () => {
		const token = await session.token('FR1001');
		const execution = createRunExecutionData();
		await session.injectFault({
			path: DECLARATIONS_PATH,
			method: 'POST',
			type: 'status',
			status: 400,
		});
		const parameters = { ...createFromItems, companyId: 'FR1001', monthOfApplication: '202610' };
		await failureOf(
			runPartnerPayroll(parameters, session.accessToken(token), { runExecutionData: execution }),
		);
		const [item] = await runPartnerPayroll(parameters, session.accessToken(token), {
			runExecutionData: execution,
		});
		expect(item.json.declared).toBe(true);
		expect(await recorded()).toHaveLength(1);
	});
});

describe('answers that are not the API', () => {
	it('an HTML page with 200 to the POST is never a success: probably not recorded', async () => {
		const token = await session.token('FR1001');
		await session.injectFault({ path: DECLARATIONS_PATH, method: 'POST', type: 'html200' });
		const error = await failureOf(
			runPartnerPayroll(
				{ ...createFromItems, companyId: 'FR1001', monthOfApplication: '202610' },
				session.accessToken(token),
			),
		);
		expect(error.message).toBe(
			'The billing declaration was probably not recorded: the answer is an HTML page, not the Partner Payroll API',
		);
		expect(error.description).toContain('Check the API Base URL');
		expect(await recorded()).toHaveLength(0);
	});
});
