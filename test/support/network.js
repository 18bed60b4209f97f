// Node built-ins the linted TypeScript tests may not import (n8n's cloud rules): a port where
// nothing listens, a plain wait, a server with one fixed JSON answer.
const net = require('node:net');

async function closedPort() {
	const server = net.createServer();
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	await new Promise((resolve) => server.close(resolve));
	return port;
}

async function pause(ms) {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A local server that answers every request with one status and JSON body: another implementation
 * of an endpoint (for example an OAuth 2.0 server answering with an RFC 6749 error body).
 */
async function startJsonAnswerServer(status, body) {
	const http = require('node:http');
	const server = http.createServer((request, response) => {
		request.resume();
		response.writeHead(status, { 'Content-Type': 'application/json' });
		response.end(JSON.stringify(body));
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

module.exports = { closedPort, pause, startJsonAnswerServer };
