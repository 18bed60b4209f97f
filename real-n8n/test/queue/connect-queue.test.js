'use strict';
// The connect link in n8n's queue mode with its consents spread over two `n8n webhook` processes, as a load
// balancer in front of n8n would spread them: Redis, Postgres, the main instance (n8n's public API), one
// worker and two webhook processes, each with the package. The shipped example "partner, connect link" (Allow
// Any Company on) is published; each webhook process serves the link at its own address. Six administrators
// consent, three through each process, and their ways back reach n8n at the same moment: each process writes
// the Partner API credential's company list through n8n's public API, under the list's lock in n8n's Data
// Tables (docs/exactly-once.md, "The company list across n8n processes"). Every administrator is told
// "connected", and every company's row, with its own token, is in the list.
const fs = require('node:fs');
const path = require('node:path');
const {
	n8nRuntime,
	startTestSandbox,
	sandboxControl,
	introspect,
	N8nRest,
	DEFAULT_CLIENT,
	PARTNER_CONNECT_DEMO,
	connectExampleCredentials,
	connectLinkUrl,
	ensureConnectLink,
	importExamples,
	consentGiven,
	followWayBack,
} = require('../../lib');
const { packedQueueCluster, prepareQueueLab, stopQueueLab } = require('../support/queue-lab');

const RUNTIME = n8nRuntime();
const SETUP_TIMEOUT_MS = 25 * 60_000; // includes installing n8n, Redis and Postgres when missing
jest.setTimeout(240_000);

/** Three companies through each webhook process. */
const THROUGH = {
	'webhook-1': ['FR5001', 'GB7001', 'ES6002'],
	'webhook-2': ['ES6001', 'FR5002', 'GB7002'],
};
const LOCK_TABLE = 'Partner Payroll company list locks';

let sandbox;
let cluster;
let dataDir;
/** What n8n answered each way back: {companyId, process, status, location}. */
let answers;

const storedCompanies = async () =>
	(await cluster.cli.exportCredential(PARTNER_CONNECT_DEMO.credential.id)).data.companies?.company ?? [];

beforeAll(async () => {
	dataDir = await prepareQueueLab(RUNTIME, 'connect');
	sandbox = await startTestSandbox({ generatedCompanies: 9 });
	cluster = await packedQueueCluster(dataDir, { runtime: RUNTIME, workers: 1, webhookProcesses: 2 });
	await cluster.cli.importCredentials(connectExampleCredentials(sandbox, { n8nUrl: cluster.url }));
	await importExamples(cluster.cli, {
		importedIdsFile: path.join(dataDir, 'imported-examples.json'),
		only: [PARTNER_CONNECT_DEMO.workflowId],
	});
	await cluster.startAll();
	const rest = new N8nRest(cluster.url);
	await rest.ensureOwner();
	// The owner's key with the demo's scopes (the list's lock among them), n8n's public API at the main.
	await ensureConnectLink({ rest, n8nUrl: cluster.url, sandbox, apiKeyFile: path.join(dataDir, 'n8n-api-key.json') });
	const processes = Object.fromEntries(cluster.webhookProcesses.map((spec) => [spec.name, spec]));
	for (const spec of cluster.webhookProcesses) {
		await sandboxControl(sandbox, 'POST', '/clients/redirect-uris', {
			clientId: DEFAULT_CLIENT.clientId,
			redirectUri: connectLinkUrl(spec.url),
		});
	}
	// Every consent given first, its way back held; then all ways back at once.
	const consents = [];
	for (const [name, companyIds] of Object.entries(THROUGH)) {
		for (const companyId of companyIds) {
			consents.push({ companyId, process: name, ...(await consentGiven(connectLinkUrl(processes[name].url), { companyId })) });
		}
	}
	answers = await Promise.all(
		consents.map(async ({ companyId, process, wayBack, cookie }) => {
			const { status, location, page } = await followWayBack({ wayBack, cookie });
			return { companyId, process, status, location, page: status === 302 ? '' : page };
		}),
	);
}, SETUP_TIMEOUT_MS);

afterAll(async () => await stopQueueLab({ cluster, sandbox, dataDir }));

test('each way back reached its own webhook process, and every administrator was sent to the "connected" page', () => {
	for (const answer of answers) {
		const own = cluster.webhookProcesses.find((spec) => spec.name === answer.process);
		expect({ ...answer, location: answer.location?.split('?')[0] }).toEqual({
			...answer,
			status: 302,
			page: '',
			location: connectLinkUrl(own.url),
		});
		expect(new URL(answer.location).searchParams.has('connected')).toBe(true);
	}
});

test("every company connected at once is in the Partner API credential's list, each with an active token of its own", async () => {
	const rows = await storedCompanies();
	const connected = Object.values(THROUGH).flat();
	expect(rows.map((row) => row.companyId).sort()).toEqual([...connected].sort());
	for (const row of rows) {
		const [boundTo, token] = [row.accessToken.slice(0, row.companyId.length + 1), row.accessToken.slice(row.companyId.length + 1)];
		expect(boundTo).toBe(`${row.companyId}:`);
		expect(await introspect(sandbox, token)).toMatchObject({ active: true, company_id: row.companyId });
	}
});

test("the list's lock is a table of n8n's Data Tables, given back: every row free", async () => {
	const { apiKey } = JSON.parse(fs.readFileSync(path.join(dataDir, 'n8n-api-key.json'), 'utf8'));
	const get = async (route) => {
		const response = await fetch(`${cluster.url}/api/v1${route}`, { headers: { 'X-N8N-API-KEY': apiKey } });
		if (!response.ok) throw new Error(`GET ${route} answered ${response.status}: ${await response.text()}`);
		return response.json();
	};
	const tables = (await get(`/data-tables?filter=${encodeURIComponent(JSON.stringify({ name: LOCK_TABLE }))}`)).data;
	expect(tables.map((table) => table.name)).toEqual([LOCK_TABLE]);
	const rows = (await get(`/data-tables/${tables[0].id}/rows?limit=250`)).data;
	expect(rows.length).toBeGreaterThan(0);
	expect(rows.map((row) => [row.credentialId, row.holder])).toEqual(rows.map(() => [PARTNER_CONNECT_DEMO.credential.id, 'free']));
});
