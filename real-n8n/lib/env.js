'use strict';
// The environment of one n8n process: its own user folder and ports, loopback only, nothing phoning home.
const fs = require('node:fs');
const path = require('node:path');
const { n8nRuntime } = require('./runtimes');

/**
 * Where the Read/Write Files from Disk node may write: `files/` in the user folder, which is also the working
 * directory of every n8n process the lab starts (the partner example writes `files/payment-file-…` there).
 * n8n's own default is ~/.n8n-files, outside the lab's folders; n8n 2.8 writes only into a folder that exists.
 */
function filesFolder(userFolder) {
	const folder = path.join(userFolder, 'files');
	fs.mkdirSync(folder, { recursive: true });
	return folder;
}

// Fixed so that credentials imported by one process can be decrypted by the next one using the same
// user folder. It protects throwaway local data only.
const ENCRYPTION_KEY = 'partner-payroll-e2e-local-only-key';

// Settings of the parent that must not reach n8n. NODE_ENV=test (set by Jest) makes `n8n start` exit
// with code 1 and no output.
const NOT_INHERITED = /^(N8N_|DB_|EXECUTIONS_|WEBHOOK_URL$|GENERIC_TIMEZONE$|NODE_ENV$|JEST_)/;

function baseEnv() {
	return Object.fromEntries(Object.entries(process.env).filter(([key]) => !NOT_INHERITED.test(key)));
}

/** `runtime` (runtimes.js) puts the Node.js of that n8n version first on PATH. */
function n8nEnv({ userFolder, port, brokerPort, runtime = n8nRuntime(), extra = {} }) {
	const base = baseEnv();
	return {
		...base,
		...runtime.pathEnv(base),
		// Every n8n process (each CLI command, each start) compiles n8n's modules anew: Node.js 22 and later keep
		// the compiled code in this folder for the next process (about a fifth of a CLI command's CPU time);
		// Node.js 20, which runs n8n 2.8.4, ignores the setting.
		NODE_COMPILE_CACHE: path.join(runtime.installDir, 'compile-cache'),
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		DB_TYPE: 'sqlite',
		N8N_HOST: '127.0.0.1',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PORT: String(port),
		N8N_PROTOCOL: 'http',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		// `n8n execute` prints its result through the logger at level info: below info, stdout stays empty.
		N8N_LOG_LEVEL: 'info',
		GENERIC_TIMEZONE: 'UTC',
		N8N_RESTRICT_FILE_ACCESS_TO: filesFolder(userFolder),
		...extra,
	};
}

module.exports = { n8nEnv, filesFolder };
