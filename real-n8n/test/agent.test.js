'use strict';
// The node as an AI agent's tool, offline, inside a real n8n: n8n's AI Agent, its OpenAI Chat Model node
// pointed (through the openAiApi credential's Base URL) at a local fake chat-completions server that
// follows a script (a tool call, then a final answer quoting what the tool returned) and records every
// request, and the generated "Partner Payroll Tool" node with Company ID and Month from $fromAI(),
// against the sandbox. What the model saw is asserted from the fake's recorded requests; what the
// service received from the sandbox's request log and billing declarations.
//
// Both agent paths of n8n: the AI Agent version n8n adds by default (3.x: the tool runs as a node
// execution of its own, driven by the engine) and Agent 2.2 (the tool runs inside the agent node).
// Every tool node has Settings → On Error = "Continue (regular output)", the setting recommended to
// users; the cases "On Error left at its default" record what each n8n version and agent does without it.
//
// Two cases per agent use a Partner API credential, which n8n 2.40 restricts to the nodes that list it
// (restrictToSupportedNodes): the tool variant n8n generates of the package's node must still get it, and
// n8n's own HTTP Request Tool must not (n8n 2.8.4 ignores the restriction: what it does is recorded).
//
// All workflows run in one `n8n execute-batch` (one n8n process), each conversation told apart by its
// question; each workflow reads with a token of its own, so the sandbox's log tells them apart.
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const {
	ensureN8nInstalled,
	createInstance,
	startTestSandbox,
	accessTokenCredential,
	partnerCredential: partnerApiCredential,
	ALL_SCOPES,
	n8nRuntime,
	packageName,
	examplesDir,
	exampleCredentials,
	listRequests,
	sandboxControl,
	nodeItems,
	binaryBytes,
	sha256,
	billingRecordCredential,
	connectBillingRecord,
} = require('../lib');
const { startFakeOpenAi } = require('./support/fake-openai');

jest.setTimeout(180_000);

const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
const RUNTIME = n8nRuntime();
const COMPANY = 'FR1001';
const MONTH = '202610'; // completed for every seeded company
const BAD_MONTH = '2026-13';
const MONTH_ERROR = 'Month must be a month as YYYYMM';
const TOOL_TYPE = `${packageName}.partnerPayrollTool`;
const HTTP_REQUEST_TOOL_TYPE = '@n8n/n8n-nodes-langchain.toolHttpRequest';
const AGENT_TYPE = '@n8n/n8n-nodes-langchain.agent';
const MODEL_TYPE = '@n8n/n8n-nodes-langchain.lmChatOpenAi';
const CHAT_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.chatTrigger';
const CONTINUE = 'continueRegularOutput';
const FROM_AI = Object.freeze({
	companyId: "={{ $fromAI('companyId', 'the company id', 'string') }}",
	month: "={{ $fromAI('month', 'the month, like 202610', 'string') }}",
});

// A partner application, for the billing declaration (partners only).
const AGENT_PARTNER = {
	clientId: 'agent-e2e-partner',
	clientSecret: 'sandbox-secret-agent-e2e-partner',
	redirectUris: ['http://127.0.0.1:9/unused'],
	allowedScopes: [...ALL_SCOPES],
	partner: true,
};
const FAKE_MODEL_CREDENTIAL = { id: 'agentFakeModel', name: 'Fake model (local)', type: 'openAiApi' };
const FAKE_MODEL_API_KEY = 'sk-fake-model-local-only';

/** The two agent paths. The default version is read from the installed n8n (see beforeAll). */
const AGENTS = [
	{ key: 'A3', title: "AI Agent 3.x (n8n's default version, tools run by the engine)", version: null, toolRunsAsNode: true },
	{ key: 'A22', title: 'AI Agent 2.2 (tools run inside the agent node)', version: 2.2, toolRunsAsNode: false },
];

/**
 * What n8n does with a refused input when the tool's On Error is left at its default, by n8n version
 * (runtimes.js label) and agent: `workflowFails` (the execution ends with the tool's error, the model
 * never hears of it), `errorToModel` (the model gets `[{"error": …}]`, the workflow goes on),
 * `emptyToModel` (the workflow goes on and the model gets an empty tool result).
 */
const WITHOUT_ON_ERROR = {
	pinned: { A3: 'workflowFails', A22: 'emptyToModel' },
	newest: { A3: 'errorToModel', A22: 'emptyToModel' },
};

/** Whether the n8n version enforces the Partner API credential's `restrictToSupportedNodes` (quirk Q9). */
const enforced = RUNTIME.enforcesNodeRestriction;

/** The AI Agent version the installed n8n adds by default (its `defaultVersion`). */
function defaultAgentVersion(runtime) {
	const file = path.join(
		runtime.installDir,
		'node_modules/@n8n/n8n-nodes-langchain/dist/nodes/agents/Agent/Agent.node.js',
	);
	const match = /defaultVersion:\s*([\d.]+)/.exec(fs.readFileSync(file, 'utf8'));
	if (!match) throw new Error(`No defaultVersion in ${file}`);
	return Number(match[1]);
}

// ---- the scripted conversations and their workflows ----------------------------------------------

const call = (args, tool) => ({ toolCall: { arguments: args, tool } });
const callAll = (...calls) => ({ toolCalls: calls.map(([args, tool]) => ({ arguments: args, tool })) });
/** The final answer quotes every tool result it was given, as is. */
const quoteResults = () => ({ final: (results) => `The tools answered: ${results.join(' | ')}` });

const statusTool = () => ({
	name: 'Get payroll status',
	parameters: { resource: 'payroll', operation: 'getStatus', companyId: FROM_AI.companyId, month: FROM_AI.month },
});

const N8N_API = billingRecordCredential({ id: 'ppAgentN8nApi1' });

/** Billing Declaration → Create of `quantity` payslips, company and month from the model; `options` added. */
const declareTool = (agent, quantity, options = {}) => ({
	name: 'Declare billing',
	parameters: {
		resource: 'billingDeclaration',
		operation: 'create',
		companyId: FROM_AI.companyId,
		monthOfApplication: FROM_AI.month,
		// One product name per agent: the sandbox's declarations tell the two runs apart.
		quantityByProducts: { product: [{ productName: billingProduct(agent), quantity }] },
		...options,
	},
});

/** One case per agent: the tool node, what the model answers, and whether On Error is set. */
const CASES = {
	status: (agent) => ({
		question: `[${agent.key}] Is the October 2026 payroll of ${COMPANY} completed?`,
		tool: statusTool(),
		script: [call({ companyId: COMPANY, month: MONTH }), quoteResults()],
	}),
	invalidMonth: (agent) => ({
		question: `[${agent.key}] What is the payroll status of ${COMPANY} for the 13th month of 2026?`,
		tool: statusTool(),
		script: [call({ companyId: COMPANY, month: BAD_MONTH }), quoteResults()],
	}),
	invalidMonthDefaultOnError: (agent) => ({
		question: `[${agent.key}] Status of ${COMPANY} for the 13th month of 2026, tool with default settings?`,
		tool: statusTool(),
		onError: null,
		script: [call({ companyId: COMPANY, month: BAD_MONTH }), quoteResults()],
	}),
	// The tool with a Partner API credential, which sets restrictToSupportedNodes: n8n 2.40 decrypts it
	// only for the nodes that list it, and the tool variant n8n generates must be one of them.
	partnerApiStatus: (agent) => ({
		question: `[${agent.key}] With the Partner API credential: is the October 2026 payroll of ${COMPANY} completed?`,
		partnerApi: true,
		tool: { ...statusTool(), parameters: { ...statusTool().parameters, authentication: 'partnerApi' } },
		script: [call({ companyId: COMPANY, month: MONTH }), quoteResults()],
	}),
	// n8n's HTTP Request Tool with the same credential and the company hint the package's nodes send: n8n
	// 2.40 refuses it the credential; 2.8.4 ignores the restriction, and the tool hands the credential a URL.
	httpRequestToolPartnerApi: (agent) => ({
		question: `[${agent.key}] Through the HTTP Request Tool: the October 2026 payroll status of ${COMPANY}?`,
		partnerApi: true,
		tool: {
			name: 'Read status over HTTP',
			type: HTTP_REQUEST_TOOL_TYPE,
			typeVersion: 1.1,
			parameters: {
				toolDescription: 'Reads the payroll status of a company',
				method: 'GET',
				url: `${sandbox.apiBaseUrl}/companies/${COMPANY}/payroll-status?date=${MONTH}`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'partnerPayrollPartnerApi',
				sendHeaders: true,
				specifyHeaders: 'keypair',
				parametersHeaders: { values: [{ name: 'x-partner-payroll-company', valueProvider: 'fieldValue', value: COMPANY }] },
			},
		},
		script: [call({}), quoteResults()],
	}),
	paymentFile: (agent) => ({
		question: `[${agent.key}] Get me the October 2026 payment file of ${COMPANY}.`,
		tool: {
			name: 'Download payment file',
			parameters: {
				resource: 'payroll',
				operation: 'downloadPaymentFile',
				companyId: FROM_AI.companyId,
				month: FROM_AI.month,
				binaryPropertyName: 'data',
			},
		},
		script: [call({ companyId: COMPANY, month: MONTH }), quoteResults()],
	}),
	billingTwice: (agent) => ({
		question: `[${agent.key}] Declare 12 payslips for ${COMPANY} for October 2026.`,
		partner: true,
		tool: declareTool(agent, 12, { allowAgentToDeclare: true }),
		// The model calls the tool twice with the same arguments (as agents do), then answers.
		script: [call({ companyId: COMPANY, month: MONTH }), call({ companyId: COMPANY, month: MONTH }), quoteResults()],
	}),
	// The same tool without Allow the Agent to Declare, on a company token of its own: refused before any
	// request, so the sandbox's log has nothing with that token (a declaration sent would show as a 403).
	billingRefused: (agent) => ({
		question: `[${agent.key}] Declare 7 payslips for ${COMPANY} for October 2026, tool without the option.`,
		tool: declareTool(agent, 7),
		script: [call({ companyId: COMPANY, month: MONTH }), quoteResults()],
	}),
};

const billingProduct = (agent) => `agent-e2e-payslips-${agent.key}`;
const workflowId = (agent, caseName) => `ag${agent.key}${caseName[0].toUpperCase()}${caseName.slice(1)}`;

const mainLink = (node) => ({ main: [[{ node, type: 'main', index: 0 }]] });
const subLink = (type, node) => ({ [type]: [[{ node, type, index: 0 }]] });

function startNodes(question) {
	return [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} },
		{
			name: 'Question',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: {
				assignments: { assignments: [{ id: 'chat-input', name: 'chatInput', value: question, type: 'string' }] },
				options: {},
			},
		},
	];
}

/** OpenAI Chat Model 1.3 on the chat-completions API (its Responses API default is off) of the fake. */
const fakeModelNode = () => ({
	name: 'OpenAI Chat Model',
	type: MODEL_TYPE,
	typeVersion: 1.3,
	parameters: { model: { __rl: true, mode: 'id', value: 'fake-model' }, responsesApiEnabled: false, options: {} },
	credentials: { openAiApi: { id: FAKE_MODEL_CREDENTIAL.id, name: FAKE_MODEL_CREDENTIAL.name } },
});

/** Start → Question (chatInput) → AI Agent, with the fake model and one Partner Payroll Tool. */
function agentWorkflow(id, { agentVersion, question, tool, credential, onError }) {
	const nodes = [
		...startNodes(question),
		{
			name: 'AI Agent',
			type: AGENT_TYPE,
			typeVersion: agentVersion,
			parameters: { promptType: 'define', text: '={{ $json.chatInput }}', options: {} },
		},
		fakeModelNode(),
		{
			name: tool.name,
			type: tool.type ?? TOOL_TYPE,
			typeVersion: tool.typeVersion ?? 1,
			parameters: tool.type ? tool.parameters : { authentication: 'accessToken', ...tool.parameters },
			credentials: {
				[credential.type]: { id: credential.id, name: credential.name },
				// Billing Declaration → Create keeps its record of declarations in this n8n's Data Tables.
				...(tool.parameters.resource === 'billingDeclaration' ? { [N8N_API.type]: { id: N8N_API.id, name: N8N_API.name } } : {}),
			},
			...(onError ? { onError } : {}),
		},
	].map((node, index) => ({ id: `${id}-${index}`, position: [index * 220, 0], ...node }));
	return {
		id,
		name: `Agent e2e ${id}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes,
		connections: {
			Start: mainLink('Question'),
			Question: mainLink('AI Agent'),
			'OpenAI Chat Model': subLink('ai_languageModel', 'AI Agent'),
			[tool.name]: subLink('ai_tool', 'AI Agent'),
		},
	};
}

/**
 * The example "Ask about payroll" as it is, but started by Start → Question instead of its chat trigger
 * (n8n's CLI runs manual starts only) and with the fake model's credential in its empty credential slot.
 */
function runnableExample(example, question) {
	const trigger = example.nodes.find((node) => node.type === CHAT_TRIGGER_TYPE);
	const nodes = example.nodes
		.filter((node) => node !== trigger)
		.map((node) =>
			node.type === MODEL_TYPE
				? { ...node, credentials: { openAiApi: { id: FAKE_MODEL_CREDENTIAL.id, name: FAKE_MODEL_CREDENTIAL.name } } }
				: node,
		);
	const connections = { ...example.connections, Start: mainLink('Question'), Question: example.connections[trigger.name] };
	delete connections[trigger.name];
	const start = startNodes(question).map((node, index) => ({ id: `agExample-${index}`, position: [-440 + index * 220, 0], ...node }));
	return { ...example, id: 'agExample4Ask', name: 'Agent e2e: the Ask about payroll example', nodes: [...start, ...nodes], connections };
}

// ---- setup: sandbox, fake model, n8n, credentials, one batch ------------------------------------

let sandbox;
let fake;
let instance;
let batch;
let workflowIds;
let example;
const runs = {}; // by agent key and case name: {workflowId, question, credential, token}
const tokens = [];
const EXAMPLE_QUESTION = `Is the October 2026 payroll of ${COMPANY} completed, what was booked, and is there a payment file?`;

/** A token of its own per workflow; its last 4 characters (what the sandbox's log keeps) are unique. */
function readToken(index) {
	const token = `sbx_agent_e2e_${crypto.randomBytes(12).toString('hex')}_${String(index).padStart(3, '0')}`;
	sandbox.issueToken({ companyId: COMPANY, scopes: ALL_SCOPES, kind: 'apiKey', token });
	tokens.push(token);
	return token;
}

beforeAll(async () => {
	await ensureN8nInstalled();
	AGENTS[0].version = defaultAgentVersion(RUNTIME);
	sandbox = await startTestSandbox({ extraClients: [AGENT_PARTNER] });
	fake = await startFakeOpenAi();
	instance = await createInstance({ prefix: 'n8n-e2e-agent-' });

	const partnerToken = sandbox.issueToken({
		companyId: COMPANY,
		scopes: ALL_SCOPES,
		clientId: AGENT_PARTNER.clientId,
		kind: 'oauth',
	}).access_token;
	tokens.push(partnerToken);
	const partnerCredential = accessTokenCredential({ id: 'agPartnerFR', name: 'Agent e2e partner FR', sandbox, accessToken: partnerToken });
	const credentials = [
		{ ...FAKE_MODEL_CREDENTIAL, data: { apiKey: FAKE_MODEL_API_KEY, url: fake.baseUrl } },
		partnerCredential,
	];
	const workflows = [];
	for (const agent of AGENTS) {
		runs[agent.key] = {};
		for (const [caseName, makeCase] of Object.entries(CASES)) {
			const definition = makeCase(agent);
			const id = workflowId(agent, caseName);
			let credential = partnerCredential;
			let token = partnerToken;
			if (definition.partnerApi) {
				token = readToken(tokens.length);
				credential = partnerApiCredential({
					id: `pa${id}`.slice(0, 21),
					name: `Partner API ${id}`,
					sandbox,
					companies: [{ companyId: COMPANY, label: 'Agent e2e client', token }],
				});
				credentials.push(credential);
			} else if (!definition.partner) {
				token = readToken(tokens.length);
				credential = accessTokenCredential({ id: `tk${id}`.slice(0, 21), name: `Token ${id}`, sandbox, accessToken: token });
				credentials.push(credential);
			}
			fake.script(definition.question, definition.script);
			workflows.push(
				agentWorkflow(id, {
					agentVersion: agent.version,
					question: definition.question,
					tool: definition.tool,
					credential,
					onError: definition.onError === null ? undefined : CONTINUE,
				}),
			);
			runs[agent.key][caseName] = { workflowId: id, question: definition.question, token };
		}
	}

	// The example, with the credentials `npm start` gives it (company API keys of the sandbox).
	const exampleTokens = {};
	const tokenOf = (companyId) => {
		if (!exampleTokens[companyId]) {
			exampleTokens[companyId] = sandbox.issueToken({ companyId, scopes: ALL_SCOPES, kind: 'apiKey' }).access_token;
			tokens.push(exampleTokens[companyId]);
		}
		return exampleTokens[companyId];
	};
	credentials.push(...exampleCredentials(sandbox, tokenOf));
	example = JSON.parse(fs.readFileSync(path.join(examplesDir, 'ask-about-payroll.json'), 'utf8'));
	const exampleArgs = { companyId: COMPANY, month: MONTH };
	fake.script(EXAMPLE_QUESTION, [
		callAll(
			[exampleArgs, 'Get_payroll_status'],
			[exampleArgs, 'Get_accounting_entries'],
			[exampleArgs, 'Download_payment_file'],
		),
		quoteResults(),
	]);
	workflows.push(runnableExample(example, EXAMPLE_QUESTION));

	await instance.cli.importCredentials([...credentials, N8N_API]);
	await instance.cli.importWorkflows(workflows);
	await connectBillingRecord(instance, N8N_API);
	workflowIds = workflows.map((workflow) => workflow.id);
	// `n8n execute-batch --ids` silently drops every id without a digit (its filter is /\d+/).
	const dropped = workflowIds.filter((id) => !/\d/.test(id));
	if (dropped.length > 0) throw new Error(`n8n execute-batch would skip ${dropped.join(', ')}: give each id a digit`);
	batch = await instance.cli.executeBatch(workflowIds);
	batch.sandboxRequests = await listRequests(sandbox);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await instance?.dispose();
	await fake?.close();
	await sandbox?.close();
});

// ---- reading what happened -----------------------------------------------------------------------

/** The API requests the sandbox received with `token` (its log keeps the last 4 characters). */
const sandboxRequestsWith = (token) =>
	batch.sandboxRequests.filter((request) => request.authorization === `Bearer …${token.slice(-4)}`);

const toolMessages = (request) => request.body.messages.filter((message) => message.role === 'tool');
const agentOutput = (run) => nodeItems(run, 'AI Agent')[0]?.json.output;
const batchError = (id) => batch.errors.find((error) => error.workflowId === id);

/** The conversation of one case: its requests, and the run n8n recorded (absent when it failed). */
function conversation(agent, caseName) {
	const { workflowId: id, question, token } = runs[agent.key][caseName];
	return { id, token, requests: fake.requestsFor(question), run: batch.runs[id], error: batchError(id) };
}

/** The single function the request offers, and its JSON schema. */
function offeredTool(request) {
	expect(request.body.tools).toHaveLength(1);
	const [tool] = request.body.tools;
	expect(tool.type).toBe('function');
	return tool.function;
}

function expectCompanyAndMonthParameters(tool) {
	expect(tool.parameters.properties).toEqual({
		companyId: expect.objectContaining({ type: 'string', description: 'the company id' }),
		month: expect.objectContaining({ type: 'string', description: expect.stringContaining('202610') }),
	});
	expect([...tool.parameters.required].sort()).toEqual(['companyId', 'month']);
}

/** The second request carries the first answer's tool call and its result (by call id). */
function expectToolRoundTrip(requests, args) {
	const [first, second] = requests;
	const [toolCall] = first.answer.tool_calls;
	const assistant = second.body.messages.find((message) => message.role === 'assistant');
	expect(assistant.tool_calls.map((sent) => [sent.id, sent.function.name])).toEqual([[toolCall.id, toolCall.function.name]]);
	// Agent 3.x hands the call id back inside the arguments of the model's own turn; 2.2 does not.
	const { id, ...echoed } = JSON.parse(assistant.tool_calls[0].function.arguments);
	expect(echoed).toEqual(args);
	expect([undefined, toolCall.id]).toContain(id);
	const [result] = toolMessages(second);
	expect(result.tool_call_id).toBe(toolCall.id);
	return result.content;
}

// ---- the suite -----------------------------------------------------------------------------------

test(`the agent versions under test: n8n ${RUNTIME.n8nVersion}'s default AI Agent is 3.x`, () => {
	expect(AGENTS[0].version).toBeGreaterThanOrEqual(3);
	expect(AGENTS[0].version).toBeLessThan(4);
});

test(`every workflow ran to its end, except where n8n ends it on a tool error (On Error left at its default)${enforced ? ' or refuses the HTTP Request Tool the Partner API credential' : ''}`, () => {
	const expectedFailures = AGENTS.filter((agent) => WITHOUT_ON_ERROR[RUNTIME.label][agent.key] === 'workflowFails').map(
		(agent) => runs[agent.key].invalidMonthDefaultOnError.workflowId,
	);
	if (enforced) expectedFailures.push(...AGENTS.map((agent) => runs[agent.key].httpRequestToolPartnerApi.workflowId));
	expect(batch.errors.map((error) => error.workflowId).sort()).toEqual(expectedFailures.sort());
	// Also nothing n8n's batch counts as a mere warning (those are not in `errors`): a run of every other one.
	expect(Object.keys(batch.runs).sort()).toEqual(
		workflowIds.filter((id) => !expectedFailures.includes(id)).sort(),
	);
	expect(fake.requests.filter((request) => request.error)).toEqual([]);
});

describe.each(AGENTS)('$title', (agent) => {
	test('a status question: the tool is offered with companyId and month, its result travels back, the answer says completed', () => {
		const { run, requests, token } = conversation(agent, 'status');
		expect(requests).toHaveLength(2);
		const tool = offeredTool(requests[0]);
		expect(tool.name).toBe('Get_payroll_status');
		// The action is short, as in n8n's own nodes; how to fill companyId and month is in the parameters.
		expect(tool.description).toMatch(/payroll status of a month/i);
		expectCompanyAndMonthParameters(tool);

		const content = expectToolRoundTrip(requests, { companyId: COMPANY, month: MONTH });
		const expected = sandbox.seed.payrollStatus(COMPANY, MONTH);
		expect(JSON.parse(content)).toEqual([
			{ companyId: COMPANY, month: MONTH, status: 'completed', executionEndDate: expected.executionEndDate },
		]);
		expect(agentOutput(run)).toBe(`The tools answered: ${content}`);
		expect(agentOutput(run)).toContain('completed');

		const sent = sandboxRequestsWith(token);
		expect(sent.map((request) => [request.method, request.path, request.query.date, request.status])).toEqual([
			['GET', expect.stringMatching(new RegExp(`/companies/${COMPANY}/payroll-status$`)), MONTH, 200],
		]);
	});

	test("the tool with a Partner API credential (restricted to the nodes that list it): it reads with the company's token, the answer says completed", () => {
		const { run, requests, token } = conversation(agent, 'partnerApiStatus');
		expect(requests).toHaveLength(2);
		expect(offeredTool(requests[0]).name).toBe('Get_payroll_status');
		const content = expectToolRoundTrip(requests, { companyId: COMPANY, month: MONTH });
		expect(JSON.parse(content)).toEqual([expect.objectContaining({ companyId: COMPANY, month: MONTH, status: 'completed' })]);
		expect(content).not.toContain('restricted');
		expect(agentOutput(run)).toBe(`The tools answered: ${content}`);
		const sent = sandboxRequestsWith(token);
		expect(sent.map((request) => [request.method, request.path, request.tokenCompanyId, request.status])).toEqual([
			['GET', expect.stringMatching(new RegExp(`/companies/${COMPANY}/payroll-status$`)), COMPANY, 200],
		]);
	});

	test(`n8n's HTTP Request Tool with the same Partner API credential and the company hint: ${enforced ? 'n8n refuses it the credential and ends the workflow before the model is asked; nothing reaches the service' : `n8n ${RUNTIME.n8nVersion} ignores the restriction: ${agent.toolRunsAsNode ? "the tool fails on its own (Invalid URL)" : "it reads the company's status"}`}`, () => {
		const { run, requests, token, error } = conversation(agent, 'httpRequestToolPartnerApi');
		const sent = sandboxRequestsWith(token);
		if (enforced) {
			expect(error.error).toBe('Credential type "partnerPayrollPartnerApi" is restricted to specific nodes on node AI Agent');
			expect(run).toBeUndefined();
			expect(requests).toEqual([]);
			expect(sent).toEqual([]);
			return;
		}
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(2);
		const [result] = toolMessages(requests[1]);
		expect(agentOutput(run)).toBe(`The tools answered: ${result.content}`);
		if (agent.toolRunsAsNode) {
			// n8n 2.8.4's engine runs this tool with an address it cannot parse: n8n's own error, before any request.
			expect(JSON.parse(result.content)).toEqual([{ error: 'Invalid URL' }]);
			expect(sent).toEqual([]);
			return;
		}
		// Inside Agent 2.2 it gets the credential and reads the company's status with the company's token.
		expect(result.content).toContain('completed');
		expect(sent.map((request) => [request.method, request.path, request.tokenCompanyId, request.status])).toEqual([
			['GET', expect.stringMatching(new RegExp(`/companies/${COMPANY}/payroll-status$`)), COMPANY, 200],
		]);
	});

	test('an invalid month (2026-13) reaches the model as the tool\'s error, and nothing reaches the service', () => {
		const { run, requests, token } = conversation(agent, 'invalidMonth');
		expect(requests).toHaveLength(2);
		const content = expectToolRoundTrip(requests, { companyId: COMPANY, month: BAD_MONTH });
		expect(content).toContain(MONTH_ERROR);
		expect(content).toContain(`(got \\"${BAD_MONTH}\\")`);
		expect(JSON.parse(content)).toEqual([{ error: expect.stringContaining(MONTH_ERROR) }]);
		expect(agentOutput(run)).toContain(MONTH_ERROR);
		expect(sandboxRequestsWith(token)).toEqual([]);
	});

	test(`a refused input with the tool's On Error left at its default: ${WITHOUT_ON_ERROR[RUNTIME.label][agent.key]} in n8n ${RUNTIME.n8nVersion}`, () => {
		const behaviour = WITHOUT_ON_ERROR[RUNTIME.label][agent.key];
		const { run, requests, error, token } = conversation(agent, 'invalidMonthDefaultOnError');
		expect(sandboxRequestsWith(token)).toEqual([]);
		if (behaviour === 'workflowFails') {
			// The model asked for the tool and never heard back: the execution ended with the tool's error.
			// (`n8n execute-batch` runs a failed workflow once more, so the model may be asked twice: each
			// time the first turn, never a tool result.)
			expect(requests.length).toBeGreaterThanOrEqual(1);
			for (const request of requests) expect(request.body.messages.map((message) => message.role)).toEqual(['user']);
			expect(run).toBeUndefined();
			expect(error.error).toMatch(/month/i);
			expect(error.error).toContain('Get payroll status');
			return;
		}
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(2);
		const content = expectToolRoundTrip(requests, { companyId: COMPANY, month: BAD_MONTH });
		if (behaviour === 'errorToModel') {
			expect(JSON.parse(content)).toEqual([{ error: expect.stringContaining(MONTH_ERROR) }]);
		} else {
			expect(content).toBe('');
		}
	});

	test(`Download Payment File as a tool: the model gets the file's metadata only, no bytes; the bytes ${agent.toolRunsAsNode ? 'stay in the tool node\'s output in the execution' : 'are not kept in the execution either'}`, () => {
		const { run, requests, token } = conversation(agent, 'paymentFile');
		expect(requests).toHaveLength(2);
		const tool = offeredTool(requests[0]);
		expect(tool.name).toBe('Download_payment_file');
		expectCompanyAndMonthParameters(tool);
		const content = expectToolRoundTrip(requests, { companyId: COMPANY, month: MONTH });

		const bytes = sandbox.seed.paymentFile(COMPANY, MONTH);
		expect(JSON.parse(content)).toEqual([
			{
				companyId: COMPANY,
				month: MONTH,
				fileName: `payment-file-${COMPANY}-${MONTH}`,
				mimeType: 'application/octet-stream',
				fileSize: bytes.length,
			},
		]);
		expect(content.length).toBeLessThan(300);
		const base64 = bytes.toString('base64');
		for (const at of [0, Math.floor(base64.length / 2) & ~3, base64.length - 40]) {
			expect(content).not.toContain(base64.slice(at, at + 24));
		}
		expect(content).not.toContain(bytes.subarray(0, 24).toString('latin1'));
		expect(JSON.stringify(requests[1].body)).not.toContain(base64.slice(0, 24));
		// n8n did download it (once); the bytes stayed out of the conversation.
		expect(sandboxRequestsWith(token).map((request) => [request.method, request.status])).toEqual([['GET', 200]]);
		expect(agentOutput(run)).toContain('fileSize');

		// Where the file is afterwards: 3.x runs the tool as a node, whose output (json and binary) n8n
		// records; 2.2 records only what it gave the model.
		const [toolOutput] = run.data.resultData.runData['Download payment file'][0].data.ai_tool[0];
		if (agent.toolRunsAsNode) {
			expect(sha256(binaryBytes(instance.userFolder, toolOutput.binary.data))).toBe(sha256(bytes));
		} else {
			expect(toolOutput).toEqual({ json: { response: JSON.parse(content) } });
		}
	});

	test('Billing Declaration → Create called twice with the same arguments in one run: recorded once, the same confirmation twice', async () => {
		const { requests } = conversation(agent, 'billingTwice');
		expect(requests).toHaveLength(3);
		const tool = offeredTool(requests[0]);
		expect(tool.name).toBe('Declare_billing');
		expect(tool.description).toMatch(/billing declaration/i);
		expectCompanyAndMonthParameters(tool);

		const results = toolMessages(requests[2]);
		expect(results).toHaveLength(2);
		expect(requests[1].body.messages.filter((message) => message.role === 'assistant')).toHaveLength(1);
		const [first, second] = results.map((message) => JSON.parse(message.content));
		expect(first).toEqual([
			expect.objectContaining({
				declared: true,
				companyId: COMPANY,
				monthOfApplication: MONTH,
				quantityByProducts: [{ productName: billingProduct(agent), quantity: 12 }],
			}),
		]);
		expect(second).toEqual(first);

		const declarations = await sandboxControl(sandbox, 'GET', `/billing-declarations?companyId=${COMPANY}`);
		const ours = declarations.filter((declaration) =>
			JSON.stringify(declaration).includes(billingProduct(agent)),
		);
		expect(ours).toHaveLength(1);
		expect(ours[0]).toMatchObject({ companyId: COMPANY, monthOfApplication: MONTH });
	});

	test('Billing Declaration → Create without Allow the Agent to Declare: the model reads that writes are not allowed for this tool, and nothing reaches the service', () => {
		const { run, requests, token } = conversation(agent, 'billingRefused');
		expect(requests).toHaveLength(2);
		const content = expectToolRoundTrip(requests, { companyId: COMPANY, month: MONTH });
		expect(JSON.parse(content)).toEqual([
			{ error: expect.stringMatching(/^Writes are not allowed for this tool: .*"Allow the Agent to Declare".* Nothing was sent\.$/) },
		]);
		expect(agentOutput(run)).toContain('Writes are not allowed for this tool');
		expect(sandboxRequestsWith(token)).toEqual([]);
	});
});

test('the example "Ask about payroll": its three tools offered with companyId and month, each result back to the model', () => {
	const requests = fake.requestsFor(EXAMPLE_QUESTION);
	expect(requests).toHaveLength(2);
	const offered = requests[0].body.tools.map((tool) => tool.function);
	expect(offered.map((tool) => tool.name).sort()).toEqual(
		['Download_payment_file', 'Get_accounting_entries', 'Get_payroll_status'],
	);
	for (const tool of offered) {
		expect(Object.keys(tool.parameters.properties).sort()).toEqual(['companyId', 'month']);
	}
	// The example's system message; for a model id such as gpt-5-mini, LangChain sends it as "developer".
	expect(requests[0].body.messages[0]).toMatchObject({
		role: expect.stringMatching(/^(system|developer)$/),
		content: expect.stringContaining('YYYYMM'),
	});

	const byName = {};
	const [, second] = requests;
	// Agent 3.x runs the three calls of one answer one after the other and gives each its own assistant
	// message in the history.
	const calls = second.body.messages.filter((message) => message.role === 'assistant').flatMap((message) => message.tool_calls);
	expect(calls.map((sent) => sent.id).sort()).toEqual(requests[0].answer.tool_calls.map((sent) => sent.id).sort());
	for (const message of toolMessages(second)) {
		byName[calls.find((sent) => sent.id === message.tool_call_id).function.name] = message.content;
	}
	expect(Object.keys(byName).sort()).toEqual(offered.map((tool) => tool.name).sort());
	expect(JSON.parse(byName.Get_payroll_status)).toEqual([expect.objectContaining({ status: 'completed', month: MONTH })]);
	expect(JSON.parse(byName.Get_accounting_entries).length).toBeGreaterThan(0);
	expect(JSON.parse(byName.Download_payment_file)).toEqual([
		expect.objectContaining({ fileSize: sandbox.seed.paymentFile(COMPANY, MONTH).length }),
	]);

	// The payment file's bytes stay in the execution, in the tool node's output (3.x: a node run of its own).
	const run = batch.runs.agExample4Ask;
	const fileItem = run.data.resultData.runData['Download payment file'][0].data.ai_tool[0][0];
	expect(sha256(binaryBytes(instance.userFolder, fileItem.binary.data))).toBe(
		sha256(sandbox.seed.paymentFile(COMPANY, MONTH)),
	);
	expect(agentOutput(run)).toContain('completed');
	expect(example.nodes.find((node) => node.type === MODEL_TYPE).credentials).toBeUndefined();
});

test('no Partner Payroll token ever reaches the model: not in any request body, header or path the fake received', () => {
	expect(fake.requests.length).toBeGreaterThan(10);
	// One read token per workflow but the declaring ones, the partner token, the example's company API keys.
	expect(new Set(tokens).size).toBeGreaterThanOrEqual(AGENTS.length * (Object.keys(CASES).length - 1) + 2);
	for (const request of fake.requests) {
		const seen = JSON.stringify([request.path, request.headers, request.raw]);
		for (const token of tokens) expect(seen).not.toContain(token);
		// What the model's own credential sends, for contrast: its API key, nothing else.
		expect(request.headers.authorization).toBe(`Bearer ${FAKE_MODEL_API_KEY}`);
	}
});
