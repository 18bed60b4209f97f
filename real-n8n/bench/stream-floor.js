'use strict';
// The floor of a streamed download: a plain Node.js process (the one that runs n8n) that pipes one
// HTTP answer into a file, nothing else. Started by measure.js, which samples its RSS from outside.
// Usage: node stream-floor.js <file URL> <warm-up URL> <bearer token> <output file>
// It answers "ready" once warmed up, reads "go" on stdin, then answers "done <bytes>".
const fs = require('node:fs');
const http = require('node:http');
const readline = require('node:readline');

const [fileUrl, warmUpUrl, token, outputFile] = process.argv.slice(2);

function get(url) {
	return new Promise((resolve, reject) => {
		http.get(url, { headers: { authorization: `Bearer ${token}` } }, resolve).on('error', reject);
	});
}

async function download(url) {
	const response = await get(url);
	if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
	await fs.promises.writeFile(outputFile, response);
	return fs.statSync(outputFile).size;
}

async function main() {
	await download(warmUpUrl); // loads the HTTP and file code, as the warm-up download does in n8n
	console.log('ready');
	for await (const line of readline.createInterface({ input: process.stdin })) {
		if (line.trim() !== 'go') continue;
		console.log(`done ${await download(fileUrl)}`);
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
