// A fast in-process HTTP service whose every answer is decided by a function of the test: the
// trigger's model-based test (test/reliability/triggerModel) plays the Partner Payroll API with it.
// Linted TypeScript tests may not import node:http, hence this small JavaScript module.
const http = require('node:http');

/**
 * Starts a local server; `handle({ method, path, query, headers, body })` (body: the request's text) resolves to
 * `{ status, json?, bytes?, headers? }`, or `{ reset: true }` to cut the connection without an answer.
 */
async function startStubService(handle) {
	const server = http.createServer((request, response) => {
		const chunks = [];
		request.on('data', (chunk) => chunks.push(chunk));
		request.on('end', async () => {
			const url = new URL(request.url ?? '/', 'http://stub');
			let answer;
			try {
				answer = await handle({
					method: request.method,
					path: url.pathname,
					query: Object.fromEntries(url.searchParams),
					headers: request.headers,
					body: Buffer.concat(chunks).toString('utf8'),
				});
			} catch (error) {
				answer = { status: 500, json: { message: `stub failure: ${String(error)}` } };
			}
			if (answer.reset) {
				request.socket.destroy();
				return;
			}
			const body = answer.bytes ?? Buffer.from(JSON.stringify(answer.json ?? {}));
			response.writeHead(answer.status, {
				'Content-Type': answer.bytes ? 'application/pdf' : 'application/json',
				'Content-Length': body.length,
				...(answer.headers ?? {}),
			});
			response.end(body);
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(resolve);
			}),
	};
}

module.exports = { startStubService };
