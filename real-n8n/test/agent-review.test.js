'use strict';
// An AI agent's billing declaration behind n8n's human review (a human-in-the-loop tool), in a real
// n8n server: the example "An AI Agent declares billing after a person approves" as shipped, started by
// a webhook instead of its chat trigger, with a local fake model (test/support/fake-openai.js) and a
// local fake mail server (test/support/fake-smtp.js) in its empty credential slots. The reviewer's
// decision is driven as a reviewer makes it: the Approve or Decline link of the mail n8n sent is opened.
// What the service received is read from the sandbox's request log and billing declarations.
//
// Three executions, one after the other, each with its own question (the fake model's script) and
// product name (told apart in the sandbox): approved (one POST), declined (none), and approved with the
// tool's option Allow the Agent to Declare off (none: the approval does not stand in for the option).
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const {
	ensureN8nInstalled,
	createInstance,
	startTestSandbox,
	ALL_SCOPES,
	n8nRuntime,
	examplesDir,
	exampleCredentials,
	sandboxControl,
	listRequests,
	nodeItems,
	N8nPublicApi,
	billingRecordCredential,
	connectBillingRecord,
} = require('../lib');
const { startFakeOpenAi } = require('./support/fake-openai');
const { startFakeSmtp } = require('./support/fake-smtp');

jest.setTimeout(180_000);

const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
const RUNTIME = n8nRuntime();
const COMPANY = 'FR1001';
const MONTH = '202610';
const EXAMPLE_ID = 'ex8DeclareWithReview';
const CHAT_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.chatTrigger';
const MODEL_TYPE = '@n8n/n8n-nodes-langchain.lmChatOpenAi';
const REVIEW_NODE = 'Human review';
const TOOL_NODE = 'Declare billing';
const FAKE_MODEL_CREDENTIAL = { id: 'reviewFakeModel', name: 'Fake model (local)', type: 'openAiApi' };
const FAKE_MAIL_CREDENTIAL = { id: 'reviewFakeMail', name: 'Fake mail server (local)', type: 'smtp' };
const REVIEWER_BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/** The three executions: what the reviewer clicks, and whether the tool node allows the agent to declare. */
const CASES = [
	{ key: 'approved', click: 'Approve', allowAgentToDeclare: true, quantity: 12 },
	{ key: 'declined', click: 'Decline', allowAgentToDeclare: true, quantity: 13 },
	{ key: 'approvedOptionOff', click: 'Approve', allowAgentToDeclare: false, quantity: 14 },
].map((review, index) => ({
	...review,
	workflowId: `agReview${index + 1}${review.key[0].toUpperCase()}${review.key.slice(1)}`,
	webhookPath: `agent-review-${review.key}`,
	productName: `agent-review-${review.key}`,
	question: `[${review.key}] Declare ${review.quantity} payslips for ${COMPANY} for October 2026.`,
}));

/**
 * The example as shipped, but started by Webhook → Question (the question of `review`), with the fake
 * model's and mail server's credentials, and the tool's option as `review` says.
 */
function runnableExample(example, review) {
	const trigger = example.nodes.find((node) => node.type === CHAT_TRIGGER_TYPE);
	const nodes = example.nodes
		.filter((node) => node !== trigger)
		.map((node) => {
			if (node.type === MODEL_TYPE) {
				return { ...node, credentials: { openAiApi: { id: FAKE_MODEL_CREDENTIAL.id, name: FAKE_MODEL_CREDENTIAL.name } } };
			}
			if (node.name === REVIEW_NODE) {
				return { ...node, credentials: { smtp: { id: FAKE_MAIL_CREDENTIAL.id, name: FAKE_MAIL_CREDENTIAL.name } } };
			}
			if (node.name === TOOL_NODE) {
				return { ...node, parameters: { ...node.parameters, allowAgentToDeclare: review.allowAgentToDeclare } };
			}
			return node;
		});
	const start = [
		{
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: crypto.randomUUID(),
			parameters: { httpMethod: 'POST', path: review.webhookPath, responseMode: 'onReceived', options: {} },
		},
		{
			name: 'Question',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: {
				assignments: { assignments: [{ id: 'chat-input', name: 'chatInput', value: review.question, type: 'string' }] },
				options: {},
			},
		},
	].map((node, index) => ({ id: `${review.workflowId}-${index}`, position: [-440 + index * 220, 0], ...node }));
	const connections = {
		...example.connections,
		Webhook: { main: [[{ node: 'Question', type: 'main', index: 0 }]] },
		Question: example.connections[trigger.name],
	};
	delete connections[trigger.name];
	// Node ids are unique per workflow in n8n's database: each copy gets its own.
	const renamed = nodes.map((node) => ({ ...node, id: `${review.workflowId}-${node.id.slice(-12)}` }));
	return { ...example, id: review.workflowId, name: `Agent review e2e: ${review.key}`, nodes: [...start, ...renamed], connections };
}

let sandbox;
let fake;
let mail;
let instance;
let api;
let example;
// The n8n API credential the example's tool names (npm start fills it the same way).
const N8N_API = billingRecordCredential({ id: 'ppSandboxN8nApi', name: 'Partner Payroll sandbox n8n API (this n8n)' });
const outcomes = {}; // by case key: {execution, mail, links, requests (the fake model's), posts}

/** POSTs of billing declarations the sandbox has received so far. */
const declarationPosts = async () =>
	(await listRequests(sandbox)).filter((request) => request.method === 'POST' && /\/billing-declarations$/.test(request.path));

/**
 * The execution `id` once its status is one of `statuses` (n8n's public API, by id: n8n 2.8.4's list of
 * executions leaves out a waiting one).
 */
async function executionIn(id, statuses, timeoutMs = 120_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const execution = await api.execution(id, { includeData: false });
		if (statuses.includes(execution.status)) return api.execution(id);
		if (Date.now() > deadline) throw new Error(`execution ${id} not in ${statuses} within ${timeoutMs} ms (${execution.status})`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** The execution a review link resumes: `/webhook-waiting/<execution id>/<node id>`. */
const executionIdOf = (link) => /\/webhook-waiting\/(\d+)\//.exec(new URL(link).pathname + '/')[1];

/**
 * Starts the case's execution, answers the review mail as the reviewer does, and waits for the
 * execution's end. The mail leaves before n8n has saved the execution as waiting; a click before that
 * gets n8n's 409 ("is running already"), so the reviewer clicks once the execution waits, from a browser:
 * n8n answers a link opened by what its User-Agent check takes for a bot (a mail scanner; Node's fetch
 * among them) with an empty page and leaves the execution waiting.
 */
async function runCase(review) {
	const before = (await declarationPosts()).length;
	const started = await fetch(`${instance.url}/webhook/${review.webhookPath}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
	expect(started.status).toBe(200);
	const reviewMail = await mail.waitForMessage((message) => message.html.includes(review.productName));
	const links = mail.links(reviewMail);
	const executionId = executionIdOf(links[review.click]);
	const waiting = await executionIn(executionId, ['waiting']);
	const clicked = await fetch(links[review.click], { headers: { 'user-agent': REVIEWER_BROWSER } });
	const page = await clicked.text();
	if (!clicked.ok) throw new Error(`${review.click} answered ${clicked.status}: ${page.slice(0, 500)}`);
	const execution = await executionIn(executionId, ['success', 'error', 'crashed', 'canceled']);
	const posts = (await declarationPosts()).slice(before);
	outcomes[review.key] = {
		waiting,
		execution,
		mail: reviewMail,
		links,
		clickStatus: clicked.status,
		requests: fake.requestsFor(review.question),
		posts,
	};
}

beforeAll(async () => {
	await ensureN8nInstalled();
	sandbox = await startTestSandbox();
	fake = await startFakeOpenAi();
	mail = await startFakeSmtp();
	instance = await createInstance({ prefix: 'n8n-e2e-agent-review-' });

	// As if the user had clicked "Connect" on the OAuth2 credential (n8n-local is a partner application).
	const oauthToken = sandbox.issueToken({ companyId: COMPANY, scopes: ALL_SCOPES, clientId: 'n8n-local' });
	const apiKey = (companyId) => sandbox.issueToken({ companyId, scopes: ALL_SCOPES, kind: 'apiKey' }).access_token;
	await instance.cli.importCredentials([
		...exampleCredentials(sandbox, apiKey, { oauthTokenData: { access_token: oauthToken.access_token, token_type: 'bearer' } }),
		{ ...FAKE_MODEL_CREDENTIAL, data: { apiKey: 'sk-fake-model-local-only', url: fake.baseUrl } },
		{ ...FAKE_MAIL_CREDENTIAL, data: { user: '', password: '', host: '127.0.0.1', port: mail.port, secure: false, disableStartTls: true } },
		N8N_API,
	]);

	example = JSON.parse(fs.readFileSync(path.join(examplesDir, 'declare-billing-with-review.json'), 'utf8'));
	for (const review of CASES) {
		const args = { companyId: COMPANY, month: MONTH, productName: review.productName, quantity: review.quantity };
		// The gated tool's arguments: the tool's own, and the review's (none: its fields are fixed).
		fake.script(review.question, [
			{ toolCall: { arguments: { toolParameters: args, hitlParameters: {} } } },
			{ final: (results) => `The tools answered: ${results.join(' | ')}` },
		]);
	}
	await instance.cli.importWorkflows(CASES.map((review) => runnableExample(example, review)));
	for (const review of CASES) await instance.cli.publishWorkflow(review.workflowId);
	// The example's n8n API credential, for the record of billing declarations: this n8n, a key with its scopes.
	const rest = await connectBillingRecord(instance, N8N_API);
	api = new N8nPublicApi(instance.url, await rest.createApiKey(`e2e-agent-review-${Date.now()}`));
	for (const review of CASES) await runCase(review);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await instance?.dispose();
	await mail?.close();
	await fake?.close();
	await sandbox?.close();
});

const agentOutput = (execution) => nodeItems(execution, 'AI Agent')[0]?.json.output;
const ourDeclarations = async (review) =>
	(await sandboxControl(sandbox, 'GET', `/billing-declarations?companyId=${COMPANY}`)).filter((declaration) =>
		JSON.stringify(declaration).includes(review.productName),
	);

test(`n8n ${RUNTIME.n8nVersion}: the model's call of the declaring tool waits for the reviewer, who gets one mail per call with Approve and Decline`, () => {
	for (const review of CASES) {
		const { mail: reviewMail, links, clickStatus, waiting } = outcomes[review.key];
		expect(waiting.status).toBe('waiting');
		// Before the click, the tool has not run: nothing was declared yet.
		expect(waiting.data.resultData.runData[TOOL_NODE]).toBeUndefined();
		expect(reviewMail.to.join(' ')).toContain('reviewer@example.com');
		expect(reviewMail.html).toContain(review.productName);
		expect(Object.keys(links)).toEqual(expect.arrayContaining(['Approve', 'Decline']));
		expect(clickStatus).toBe(200);
	}
	expect(mail.messages).toHaveLength(CASES.length);
});

test('approved: exactly one POST reaches the sandbox, the declaration is stored, and the model gets its confirmation', async () => {
	const review = CASES[0];
	const { execution, posts, requests } = outcomes.approved;
	expect(execution.status).toBe('success');
	expect(posts.map((request) => [request.path, request.status])).toEqual([
		[expect.stringMatching(new RegExp(`/companies/${COMPANY}/billing-declarations$`)), 204],
	]);
	expect(await ourDeclarations(review)).toEqual([
		expect.objectContaining({ companyId: COMPANY, monthOfApplication: MONTH, quantityByProducts: [{ productName: review.productName, quantity: review.quantity }] }),
	]);
	const toolResults = requests.at(-1).body.messages.filter((message) => message.role === 'tool');
	expect(toolResults).toHaveLength(1);
	expect(toolResults[0].content).toContain('"declared":true');
	expect(agentOutput(execution)).toContain('"declared":true');
});

test('declined: no POST, nothing stored, and the model is told the call was rejected', async () => {
	const review = CASES[1];
	const { execution, posts, requests } = outcomes.declined;
	expect(execution.status).toBe('success');
	expect(posts).toEqual([]);
	expect(await ourDeclarations(review)).toEqual([]);
	const toolResults = requests.at(-1).body.messages.filter((message) => message.role === 'tool');
	expect(toolResults.map((message) => message.content).join(' ')).toMatch(/rejected the tool call/);
	expect(execution.data.resultData.runData[TOOL_NODE]).toBeUndefined();
});

test('approved, but the tool\'s option Allow the Agent to Declare off: the tool refuses, no POST, the model reads why', async () => {
	const review = CASES[2];
	const { execution, posts, requests } = outcomes.approvedOptionOff;
	expect(posts).toEqual([]);
	expect(await ourDeclarations(review)).toEqual([]);
	const toolResults = requests.at(-1).body.messages.filter((message) => message.role === 'tool');
	expect(toolResults.map((message) => message.content).join(' ')).toContain('Writes are not allowed for this tool');
	expect(execution.status).toBe('success');
});
