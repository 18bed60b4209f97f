'use strict';
// The credentials an n8n holds, as `{id, name, type}`: what `npm start` shows and completes. Read with
// `n8n export:credentials --all` without --decrypted, and the export file (encrypted data) deleted at once.
const fs = require('node:fs');
const path = require('node:path');

/** `cli`: an N8nCli (cli.js) of the instance's user folder; n8n need not be running. */
async function listN8nCredentials(cli) {
	const file = path.join(cli.userFolder, 'export-credential-list.json');
	fs.rmSync(file, { force: true });
	try {
		const result = await cli.run(['export:credentials', '--all', `--output=${file}`]);
		// n8n exits with an error and writes no file when there is no credential at all.
		if (!fs.existsSync(file)) {
			if (/No credentials found/i.test(result.output)) return [];
			throw new Error(`n8n export:credentials --all wrote nothing (exit ${result.code ?? result.signal}); see ${cli.logFile}`);
		}
		return JSON.parse(fs.readFileSync(file, 'utf8')).map(({ id, name, type }) => ({ id, name, type }));
	} finally {
		fs.rmSync(file, { force: true });
	}
}

module.exports = { listN8nCredentials };
