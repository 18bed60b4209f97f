// n8n-core starts a 60 s interval in SSHClientsManager when the first execution context is built;
// it is never unref'd and would keep jest alive. n8n-core has its own nested @n8n/di, hence the paths.
const fs = require('node:fs');
const path = require('node:path');

afterAll(async () => {
	const coreDir = path.dirname(require.resolve('n8n-core/package.json'));
	const { Container } = require(require.resolve('@n8n/di', { paths: [coreDir] }));
	const { SSHClientsManager } = require('n8n-core');
	if (Container.has(SSHClientsManager)) {
		Container.get(SSHClientsManager).onShutdown();
	}
	fs.rmSync(process.env.N8N_USER_FOLDER, { recursive: true, force: true });
});
