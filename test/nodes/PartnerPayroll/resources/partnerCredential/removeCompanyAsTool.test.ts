import { type ICredentialDataDecryptedObject, type INodeParameters } from 'n8n-workflow';

import { bindToken } from '../../../../../credentials/partnerCompanies';
import { partnerPayroll, runPartnerPayroll } from '../../../../support/fixtures';
import { runAsTool, shownOnToolAndNode } from '../../../../support/n8n-harness';
import { FakeN8nApi, N8N_API_KEY } from '../../../PartnerPayrollConnectTrigger/connectHarness';

// Partner Credential → Remove Company as an AI agent's tool: a removed row's token is gone (the company
// must consent again), so the tool refuses unless its node allows it, as Billing Declaration → Create
// does; a regular node is unchanged.

/** The id the test harness gives the node's Partner API credential. */
const PARTNER_ID = 'partnerPayrollPartnerApi-id';
const n8n = new FakeN8nApi();
beforeAll(async () => await n8n.start());
afterAll(async () => await n8n.stop());

const rows = ['FR1001', 'FR1002'].map((companyId) => ({
	companyId,
	label: `Client ${companyId}`,
	accessToken: bindToken(companyId, `token-of-${companyId}`),
}));

beforeEach(() =>
	n8n.storePartnerCredential(PARTNER_ID, {
		baseUrl: 'https://api.payroll.example/v1',
		authServerUrl: 'https://auth.payroll.example/oauth',
		clientId: 'partner-client',
		clientSecret: 'partner-secret',
		companies: { company: rows },
	}),
);

/** The node's credentials as n8n gives them: the Partner API credential as the fake n8n stores it now. */
function credentials(): Record<string, ICredentialDataDecryptedObject> {
	const nodeCredentials = { partnerPayrollN8nApi: { url: n8n.url, apiKey: N8N_API_KEY } };
	Object.defineProperty(nodeCredentials, 'partnerPayrollPartnerApi', {
		enumerable: true,
		get: () => structuredClone(n8n.credentials.get(PARTNER_ID)!.data),
	});
	return nodeCredentials as unknown as Record<string, ICredentialDataDecryptedObject>;
}

const storedCompanyIds = () => n8n.companies(PARTNER_ID).map((row) => row.companyId);

/** The tool as an agent is given it: the company from the model's arguments. */
const removeTool = (options: INodeParameters = {}): INodeParameters => ({
	authentication: 'partnerApi',
	resource: 'partnerCredential',
	operation: 'removeCompany',
	companyId: '={{ $json.companyId }}',
	...options,
});
const toolArguments = { companyId: 'FR1002' };

// The node names the company of a Partner API item in front of every error.
const REFUSAL =
	'Company FR1002 (Client FR1002): Writes are not allowed for this tool: Partner Credential → Remove Company needs the option "Allow the Agent to Remove Companies" of the tool node. Nothing was changed.';

describe('Partner Credential → Remove Company as an AI agent tool', () => {
	it("without the option: the model reads the refusal, no request reaches n8n's API, the company keeps its row", async () => {
		const items = await runAsTool(partnerPayroll, {
			parameters: removeTool(),
			credentials: credentials(),
			toolArguments,
			continueOnFail: true,
		});
		expect(items).toEqual([
			expect.objectContaining({ json: { error: REFUSAL }, pairedItem: { item: 0 } }),
		]);
		expect(n8n.requests).toEqual([]);
		expect(storedCompanyIds()).toEqual(['FR1001', 'FR1002']);
	});

	it('with the option on: the company is removed once, and the model reads which', async () => {
		const items = await runAsTool(partnerPayroll, {
			parameters: removeTool({ allowAgentToRemoveCompanies: true }),
			credentials: credentials(),
			toolArguments,
			continueOnFail: true,
		});
		expect(items).toEqual([
			{
				json: { companyId: 'FR1002', companyLabel: 'Client FR1002', removed: true },
				pairedItem: { item: 0 },
			},
		]);
		expect(storedCompanyIds()).toEqual(['FR1001']);
	});

	it('a regular Partner Payroll node removes as before, whatever the tool-only option holds', async () => {
		await runPartnerPayroll(
			{ ...removeTool({ allowAgentToRemoveCompanies: false }), companyId: 'FR1002' },
			credentials(),
		);
		expect(storedCompanyIds()).toEqual(['FR1001']);
	});

	it('the option is shown on the tool only, off by default, and takes no expression (no $fromAI)', () => {
		const option = partnerPayroll.description.properties.find(
			({ name }) => name === 'allowAgentToRemoveCompanies',
		);
		expect(option).toMatchObject({ type: 'boolean', default: false, noDataExpression: true });
		expect(
			shownOnToolAndNode(partnerPayroll, 'allowAgentToRemoveCompanies', {
				resource: 'partnerCredential',
				operation: 'removeCompany',
			}),
		).toEqual({
			tool: true,
			node: false,
		});
	});
});
