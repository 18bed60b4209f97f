'use strict';
// A small fake SMTP server (Node's net, no dependency) for n8n's Send Email node and its human-review
// variant: it accepts every message on 127.0.0.1 without TLS or login, keeps it, and gives the links of
// its HTML body, as the reviewer's mail client would show them (Approve, Decline).
const net = require('node:net');

/** The body of a single-part message, decoded from its Content-Transfer-Encoding. */
function decodedBody(raw) {
	const split = raw.indexOf('\r\n\r\n');
	const headers = raw.slice(0, split);
	const body = raw.slice(split + 4);
	const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
	if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
	if (encoding === 'quoted-printable') {
		const bytes = body
			.replace(/=\r\n/g, '')
			.replace(/=([0-9A-F]{2})/gi, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)));
		return Buffer.from(bytes, 'latin1').toString('utf8');
	}
	return body;
}

/** One SMTP session: commands answered in order; DATA collected up to the lone dot. */
function serve(socket, messages) {
	let buffer = '';
	let inData = false;
	let envelope = { from: null, to: [] };
	const reply = (line) => socket.write(`${line}\r\n`);
	reply('220 fake-smtp ready');
	socket.on('data', (chunk) => {
		buffer += chunk.toString('latin1');
		for (;;) {
			if (inData) {
				const end = buffer.indexOf('\r\n.\r\n');
				if (end === -1) return;
				const raw = Buffer.from(buffer.slice(0, end).replace(/\r\n\.\./g, '\r\n.'), 'latin1').toString('utf8');
				buffer = buffer.slice(end + 5);
				inData = false;
				messages.push({ ...envelope, raw, html: decodedBody(raw) });
				envelope = { from: null, to: [] };
				reply('250 queued');
				continue;
			}
			const end = buffer.indexOf('\r\n');
			if (end === -1) return;
			const line = buffer.slice(0, end);
			buffer = buffer.slice(end + 2);
			const verb = line.slice(0, 4).toUpperCase();
			if (verb === 'EHLO' || verb === 'HELO') reply('250 fake-smtp');
			else if (verb === 'MAIL') (envelope.from = line.slice(10)), reply('250 ok');
			else if (verb === 'RCPT') envelope.to.push(line.slice(8)), reply('250 ok');
			else if (verb === 'DATA') (inData = true), reply('354 end with <CRLF>.<CRLF>');
			else if (verb === 'QUIT') reply('221 bye'), socket.end();
			else reply('250 ok'); // RSET, NOOP
		}
	});
	socket.on('error', () => {});
}

/**
 * Starts the fake on 127.0.0.1 (a free port). Returns { port, messages, waitForMessage(test, timeoutMs),
 * links(message), close() }: `links` maps each link's text to its address.
 */
async function startFakeSmtp() {
	const messages = [];
	const server = net.createServer((socket) => serve(socket, messages));
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: server.address().port,
		messages,
		async waitForMessage(test, timeoutMs = 60_000) {
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const found = messages.find(test);
				if (found) return found;
				if (Date.now() > deadline) {
					const last = messages.at(-1)?.html.slice(0, 3000) ?? '';
					throw new Error(`no such message within ${timeoutMs} ms (${messages.length} received; the last one: ${last})`);
				}
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
		},
		links(message) {
			const links = {};
			for (const [, href, text] of message.html.matchAll(/<a href="([^"]+)"[^>]*>([^<]*)<\/a>/g)) {
				links[text.trim()] = href.replace(/&amp;/g, '&');
			}
			return links;
		},
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

module.exports = { startFakeSmtp };
