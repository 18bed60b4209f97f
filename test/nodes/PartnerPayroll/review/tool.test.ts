import { runAsTool } from '../../../support/n8n-harness';
import { SandboxSession, partnerPayroll } from '../../../support/fixtures';

// usableAsTool: an AI Agent runs the node's execute() with the model's arguments as its input
// (n8n-core's tool invocation), not the main input.

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());

describe('the node as an AI Agent tool', () => {
	it('is usable as a tool and answers Get Status for the arguments of the model', async () => {
		expect(partnerPayroll.description.usableAsTool).toBe(true);
		const token = await session.token('FR1001');
		const items = await runAsTool(partnerPayroll, {
			parameters: {
				authentication: 'accessToken',
				resource: 'payroll',
				operation: 'getStatus',
				companyId: '={{ $json.companyId }}',
				month: '={{ $json.month }}',
			},
			credentials: session.accessToken(token),
			toolArguments: { companyId: 'FR1001', month: '202610' },
		});
		expect(items).toEqual([
			{
				json: expect.objectContaining({
					companyId: 'FR1001',
					month: '202610',
					status: 'completed',
				}),
				pairedItem: { item: 0 },
			},
		]);
	});
});
