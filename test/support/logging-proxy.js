// A small HTTP forward proxy for tests (Node's http and net only): it takes absolute-URI requests
// (`GET http://127.0.0.1:1234/api/v1/... HTTP/1.1`, what axios sends through an http proxy) and CONNECT
// tunnels, logs each one ({method, url}; for CONNECT the url is the `host:port` target), and forwards it,
// streaming bodies both ways with every header. Tests read the log to know which requests went through
// the proxy.
const http = require('node:http');
const net = require('node:net');

// Addressed to the proxy itself, not to the target.
const PROXY_ONLY_HEADERS = ['proxy-connection', 'proxy-authorization'];

/** `host:port` of a CONNECT request target, or null. */
function tunnelTarget(authority) {
	const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(String(authority || ''));
	return match ? { host: match[1], port: Number(match[2]) } : null;
}

function plainAnswer(res, status, text) {
	if (res.headersSent) {
		res.destroy();
		return;
	}
	res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
	res.end(`${text}\n`);
}

/**
 * Starts the proxy on 127.0.0.1 (`port` 0 = any free port).
 * @returns {Promise<{url: string, port: number, requests: () => Array<{method: string, url: string}>, clear: () => void, close: () => Promise<void>}>}
 */
async function startLoggingProxy({ port = 0, host = '127.0.0.1' } = {}) {
	const log = [];
	const tunnels = new Set();
	// No keep-alive towards the targets: every upstream socket ends with its exchange, so close() leaves
	// nothing behind.
	const agent = new http.Agent({ keepAlive: false });

	const server = http.createServer((req, res) => {
		log.push({ method: req.method, url: req.url });
		let target;
		try {
			target = new URL(req.url);
		} catch {
			target = null;
		}
		if (!target || target.protocol !== 'http:') {
			req.resume();
			plainAnswer(
				res,
				400,
				`This is a forward proxy: send an absolute http:// request target, not ${req.url}`,
			);
			return;
		}
		const headers = { ...req.headers };
		for (const name of PROXY_ONLY_HEADERS) delete headers[name];
		const upstream = http.request({
			agent,
			host: target.hostname.replace(/^\[|\]$/g, ''),
			port: target.port || 80,
			method: req.method,
			path: `${target.pathname}${target.search}`,
			headers,
		});
		upstream.on('response', (upstreamRes) => {
			res.writeHead(upstreamRes.statusCode, upstreamRes.statusMessage, upstreamRes.rawHeaders);
			upstreamRes.pipe(res);
			upstreamRes.on('aborted', () => res.destroy());
			upstreamRes.on('error', () => res.destroy());
		});
		upstream.on('error', (error) =>
			plainAnswer(res, 502, `Proxy could not reach ${target.host}: ${error.message}`),
		);
		res.on('close', () => {
			if (!res.writableFinished) upstream.destroy();
		});
		req.pipe(upstream);
	});

	server.on('connect', (req, clientSocket, head) => {
		log.push({ method: 'CONNECT', url: req.url });
		tunnels.add(clientSocket);
		clientSocket.on('close', () => tunnels.delete(clientSocket));
		clientSocket.on('error', () => clientSocket.destroy());
		const target = tunnelTarget(req.url);
		if (!target) {
			clientSocket.end(
				'HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
			);
			return;
		}
		const upstream = net.connect(target.port, target.host);
		tunnels.add(upstream);
		let established = false;
		// upstream.pipe(clientSocket) ends the client side when the target ends its side.
		upstream.on('close', () => tunnels.delete(upstream));
		clientSocket.on('close', () => upstream.destroy());
		upstream.on('connect', () => {
			established = true;
			clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			if (head && head.length > 0) upstream.write(head);
			upstream.pipe(clientSocket);
			clientSocket.pipe(upstream);
		});
		upstream.on('error', () => {
			if (!established) {
				clientSocket.end(
					'HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
				);
			} else {
				clientSocket.destroy();
			}
		});
	});

	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const actualPort = server.address().port;

	let closing = null;
	function close() {
		if (!closing) {
			closing = new Promise((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
				for (const socket of tunnels) socket.destroy();
				agent.destroy();
			});
		}
		return closing;
	}

	return {
		url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`,
		port: actualPort,
		requests: () => log.map((entry) => ({ ...entry })),
		clear: () => {
			log.length = 0;
		},
		close,
	};
}

module.exports = { startLoggingProxy };
