// Node built-ins the linted TypeScript tests may not import (n8n's cloud rules): a port where
// nothing listens, and a plain wait.
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

module.exports = { closedPort, pause };
