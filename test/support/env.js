// n8n-core writes an instance config (with a fresh encryption key) into its user folder on first
// use; keep it away from the developer's ~/.n8n.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

process.env.N8N_USER_FOLDER = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-test-'));
process.env.N8N_LOG_LEVEL = 'silent';

// n8n-core's dependency injection needs the metadata polyfill before any of its classes load.
require('reflect-metadata');
