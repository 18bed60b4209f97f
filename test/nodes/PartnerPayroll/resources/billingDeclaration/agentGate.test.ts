import type { INodeParameters } from 'n8n-workflow';

import { runAsTool, shownOnToolAndNode } from '../../../../support/n8n-harness';
import {
	SandboxSession,
	failureOf,
	partnerPayroll,
	runPartnerPayroll,
} from '../../../../support/fixtures';

// Billing Declaration → Create as an AI agent's tool: refused unless the tool node's option
// Allow the Agent to Declare is on; a regular node is unchanged. A read as a tool, under the same
// tool variant and without the option: review/tool.test.ts.

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());

const REFUSAL =
	'Writes are not allowed for this tool: Billing Declaration → Create needs the option "Allow the Agent to Declare" of the tool node. Nothing was sent.';

/** The tool as an agent is given it: Company ID and Month from the model's arguments. */
const declareTool = (options: INodeParameters = {}): INodeParameters => ({
	authentication: 'accessToken',
	resource: 'billingDeclaration',
	operation: 'create',
	companyId: '={{ $json.companyId }}',
	monthOfApplication: '={{ $json.month }}',
	quantityByProducts: { product: [{ productName: 'Payslips', quantity: 12 }] },
	...options,
});
const toolArguments = { companyId: 'FR1001', month: '202610' };

const storedDeclarations = async () =>
	(await session.control('GET', '/billing-declarations?companyId=FR1001')) as unknown[];
const posts = async () => (await session.requests()).filter((request) => request.method === 'POST');

describe('Billing Declaration → Create as an AI agent tool', () => {
	it('without Allow the Agent to Declare: the model reads the refusal as the item error, and no POST reaches the service', async () => {
		const credentials = session.accessToken(await session.token('FR1001'));
		await session.clearRequests();
		const items = await runAsTool(partnerPayroll, {
			parameters: declareTool(),
			credentials,
			toolArguments,
			continueOnFail: true,
		});
		expect(items).toEqual([
			expect.objectContaining({ json: { error: REFUSAL }, pairedItem: { item: 0 } }),
		]);
		expect(await session.requests()).toEqual([]);
		expect(await storedDeclarations()).toEqual([]);
	});

	it("without the option and the tool's On Error at its default: the run fails with the refusal and what to do, nothing sent", async () => {
		const credentials = session.accessToken(await session.token('FR1001'));
		await session.clearRequests();
		const error = await failureOf(
			runAsTool(partnerPayroll, {
				parameters: declareTool({ allowAgentToDeclare: false }),
				credentials,
				toolArguments,
			}),
		);
		expect(error.message).toBe(REFUSAL);
		expect(error.description).toContain('Turn on "Allow the Agent to Declare"');
		expect(error.description).toContain("n8n's human review");
		expect(await posts()).toEqual([]);
		expect(await storedDeclarations()).toEqual([]);
	});

	it('with Allow the Agent to Declare on: declared once, the confirmation goes back to the model', async () => {
		// With the record of declarations (n8n's Data Tables through the n8n API credential).
		const credentials = {
			...session.dataTables.credential(),
			...session.accessToken(await session.token('FR1001')),
		};
		await session.clearRequests();
		const items = await runAsTool(partnerPayroll, {
			parameters: declareTool({ allowAgentToDeclare: true }),
			credentials,
			toolArguments,
			continueOnFail: true,
		});
		expect(items).toEqual([
			{
				json: expect.objectContaining({
					declared: true,
					companyId: 'FR1001',
					monthOfApplication: '202610',
					quantityByProducts: [{ productName: 'Payslips', quantity: 12 }],
				}),
				pairedItem: { item: 0 },
			},
		]);
		expect((await posts()).map((request) => [request.path, request.status])).toEqual([
			[expect.stringMatching(/\/companies\/FR1001\/billing-declarations$/), 204],
		]);
		expect(await storedDeclarations()).toHaveLength(1);
	});

	it('a regular Partner Payroll node declares as before, whatever the tool-only option holds', async () => {
		const credentials = session.accessToken(await session.token('FR1001'));
		await session.clearRequests();
		const items = await runPartnerPayroll(
			{ ...declareTool({ allowAgentToDeclare: false }), companyId: 'FR1001' },
			credentials,
			{ items: [{ json: toolArguments }] },
		);
		expect(items).toEqual([
			expect.objectContaining({ json: expect.objectContaining({ declared: true }) }),
		]);
		expect(await posts()).toHaveLength(1);
		expect(await storedDeclarations()).toHaveLength(1);
	});

	it('the option is shown on the tool only, off by default, and takes no expression (no $fromAI)', () => {
		const option = partnerPayroll.description.properties.find(
			({ name }) => name === 'allowAgentToDeclare',
		);
		expect(option).toMatchObject({ type: 'boolean', default: false, noDataExpression: true });
		expect(
			shownOnToolAndNode(partnerPayroll, 'allowAgentToDeclare', {
				resource: 'billingDeclaration',
				operation: 'create',
			}),
		).toEqual({
			tool: true,
			node: false,
		});
	});
});
