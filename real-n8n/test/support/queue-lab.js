'use strict';
// What every queue-mode suite does around its cluster (real-n8n/lib/queue.js): n8n, Redis and Postgres
// installed when missing, a new data folder with the package packed into it, and, at the end, the cluster
// and the sandbox stopped and the folder removed.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createQueueCluster, ensureDebianPackages, ensureN8nInstalled, packPackage } = require('../../lib');

/** Installs what the cluster needs when missing; a new data folder `n8n-e2e-queue-<name>-…` for it. */
async function prepareQueueLab(runtime, name) {
	await ensureN8nInstalled(runtime);
	await ensureDebianPackages(['redis-server', 'postgresql']);
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `n8n-e2e-queue-${name}-`));
	fs.chmodSync(dataDir, 0o755); // Postgres runs as another user when we are root
	return dataDir;
}

/** The cluster in `dataDir` with the package packed there; `options` as createQueueCluster takes them. */
async function packedQueueCluster(dataDir, options) {
	const tarball = packPackage(path.join(dataDir, 'package-tarball'));
	return await createQueueCluster({ dataDir, tarball, ...options });
}

/** Stops what a suite started and removes its data folder (kept with E2E_KEEP_USER_FOLDERS). */
async function stopQueueLab({ cluster, sandbox, dataDir }) {
	await cluster?.stop();
	await sandbox?.close();
	if (dataDir && !process.env.E2E_KEEP_USER_FOLDERS) fs.rmSync(dataDir, { recursive: true, force: true });
}

module.exports = { prepareQueueLab, packedQueueCluster, stopQueueLab };
