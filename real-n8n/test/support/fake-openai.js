'use strict';
// A small fake of an OpenAI-compatible chat-completions server (Node's http, no dependency), for n8n's
// OpenAI Chat Model node pointed at it through its credential's Base URL (`http://127.0.0.1:<port>/v1`).
//
// Scripted per conversation: a script is registered for the question a workflow asks (the first user
// message) and says, turn by turn, what the "model" answers:
//   { toolCall: { arguments: {...}, tool?: 'Name' } }   one tool call (function name from the request's
//                                                        tools[]: the one named `tool`, else the first)
//   { toolCalls: [{ arguments, tool? }, ...] }          several tool calls in one answer
//   { final: (toolResults) => 'text' }                   the final answer; `toolResults` are the contents
//                                                        of the request's `role: "tool"` messages
// The turn is found from the tool calls already in the request's history (each step that calls tools
// is done once that many calls are there), so a retried request gets the same answer, whether the agent
// keeps several calls of one answer in one assistant message or, as AI Agent 3.x does, in one message
// each. Every request is recorded (method, path, headers, raw and parsed body) to assert what the model saw.
// `stream: true` requests are answered as server-sent events with the same content.
const http = require('node:http');

const ROUTES = {
	chat: /^\/v1\/chat\/completions\/?$/,
	models: /^\/v1\/models\/?$/,
};

const contentText = (content) =>
	Array.isArray(content) ? content.map((part) => part?.text ?? '').join('') : String(content ?? '');

/** The first user message: what identifies the conversation. */
function questionOf(body) {
	const user = (body.messages ?? []).find((message) => message.role === 'user');
	return user ? contentText(user.content) : '';
}

const toolResultsOf = (body) =>
	(body.messages ?? []).filter((message) => message.role === 'tool').map((message) => contentText(message.content));

function toolNamed(body, wanted) {
	const names = (body.tools ?? []).map((tool) => tool.function?.name).filter(Boolean);
	if (names.length === 0) throw new Error('the request offers no tools');
	if (!wanted) return names[0];
	const name = names.find((candidate) => candidate === wanted);
	if (!name) throw new Error(`no tool named "${wanted}" in the request (offered: ${names.join(', ')})`);
	return name;
}

/** The step to answer with: the first one whose tool calls are not all in the history yet. */
function turnOf(steps, body) {
	let calls = (body.messages ?? [])
		.filter((message) => message.role === 'assistant')
		.reduce((count, message) => count + (message.tool_calls?.length ?? 0), 0);
	let turn = 0;
	while (turn < steps.length - 1 && steps[turn].final === undefined) {
		const made = (steps[turn].toolCalls ?? [steps[turn].toolCall]).length;
		if (calls < made) break;
		calls -= made;
		turn += 1;
	}
	return turn;
}

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

/** The assistant message and finish reason of `step` for this request. */
function answerOf(step, body, callCounter) {
	if (step.final !== undefined) {
		const content = typeof step.final === 'function' ? step.final(toolResultsOf(body), body) : String(step.final);
		return { message: { role: 'assistant', content }, finishReason: 'stop' };
	}
	const calls = step.toolCalls ?? [step.toolCall];
	const toolCalls = calls.map((call) => ({
		id: `call_${(callCounter.next += 1)}`,
		type: 'function',
		function: { name: toolNamed(body, call.tool), arguments: JSON.stringify(call.arguments ?? {}) },
	}));
	return { message: { role: 'assistant', content: null, tool_calls: toolCalls }, finishReason: 'tool_calls' };
}

function completion(body, { message, finishReason }, id) {
	return {
		id,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: body.model,
		choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
		usage: USAGE,
	};
}

/** The same answer as chat.completion.chunk events. */
function streamChunks(body, { message, finishReason }, id) {
	const chunk = (delta, finish = null, extra = {}) => ({
		id,
		object: 'chat.completion.chunk',
		created: Math.floor(Date.now() / 1000),
		model: body.model,
		choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
		...extra,
	});
	const delta = { role: 'assistant', content: message.content ?? '' };
	if (message.tool_calls) delta.tool_calls = message.tool_calls.map((call, index) => ({ index, ...call }));
	const chunks = [chunk(delta), chunk({}, finishReason)];
	if (body.stream_options?.include_usage) chunks.push({ ...chunk({}), choices: [], usage: USAGE });
	return chunks;
}

async function readBody(req) {
	const parts = [];
	for await (const part of req) parts.push(part);
	return Buffer.concat(parts).toString('utf8');
}

function sendJson(res, status, value) {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(value));
}

/**
 * Starts the fake on 127.0.0.1 (a free port unless `port`). Returns
 * { url, baseUrl, requests, script(question, steps), requestsFor(question), close() }.
 */
async function startFakeOpenAi({ port = 0 } = {}) {
	const scripts = new Map();
	const requests = [];
	const callCounter = { next: 0 };
	let completions = 0;

	const server = http.createServer(async (req, res) => {
		const url = new URL(req.url, 'http://127.0.0.1');
		const raw = await readBody(req);
		let body = null;
		try {
			body = raw ? JSON.parse(raw) : null;
		} catch {
			body = null;
		}
		const record = { method: req.method, path: url.pathname, headers: { ...req.headers }, raw, body };
		requests.push(record);
		try {
			if (req.method === 'GET' && ROUTES.models.test(url.pathname)) {
				return sendJson(res, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model', owned_by: 'fake' }] });
			}
			if (req.method !== 'POST' || !ROUTES.chat.test(url.pathname)) {
				return sendJson(res, 404, { error: { message: `No route ${req.method} ${url.pathname}`, type: 'invalid_request_error' } });
			}
			if (!body) return sendJson(res, 400, { error: { message: 'Body is not JSON', type: 'invalid_request_error' } });
			const question = questionOf(body);
			record.question = question;
			const steps = scripts.get(question);
			if (!steps) throw new Error(`no script for the question ${JSON.stringify(question)}`);
			const step = steps[turnOf(steps, body)];
			const answer = answerOf(step, body, callCounter);
			record.answer = answer.message;
			const id = `chatcmpl-fake-${(completions += 1)}`;
			if (body.stream) {
				res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
				for (const chunk of streamChunks(body, answer, id)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
				return res.end('data: [DONE]\n\n');
			}
			return sendJson(res, 200, completion(body, answer, id));
		} catch (error) {
			record.error = error.message;
			// 400, not 500: the OpenAI client does not retry it, so a broken script fails fast.
			return sendJson(res, 400, { error: { message: `fake-openai: ${error.message}`, type: 'invalid_request_error' } });
		}
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', resolve);
	});
	const url = `http://127.0.0.1:${server.address().port}`;

	return {
		url,
		/** What the openAiApi credential's Base URL (`url`) must be. */
		baseUrl: `${url}/v1`,
		requests,
		/** Registers the answers to the conversation that starts with `question`. */
		script(question, steps) {
			if (!Array.isArray(steps) || steps.length === 0) throw new Error('a script needs at least one step');
			scripts.set(question, steps);
		},
		/** The chat-completion requests of one conversation, in order. */
		requestsFor(question) {
			return requests.filter((request) => request.question === question);
		},
		close() {
			server.closeAllConnections?.();
			return new Promise((resolve) => server.close(() => resolve()));
		},
	};
}

module.exports = { startFakeOpenAi };
