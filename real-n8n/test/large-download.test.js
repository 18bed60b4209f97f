'use strict';
// A 200 MiB payment file through Payroll → Download Payment File inside a real n8n (`n8n start`, the
// workflow published behind a webhook, n8n's default filesystem binary data mode): every byte arrives
// (sha256 against the sandbox), and the resident memory of n8n's process group (main process and task
// runner, sampled from /proc) rises by less than the file's size, so the download streams to n8n's
// binary store instead of being held in memory.
const {
	ensureN8nInstalled,
	createInstance,
	startTestSandbox,
	accessTokenCredential,
	ALL_SCOPES,
	partnerPayrollNode,
	chainWorkflow,
	webhookTrigger,
	nodeItems,
	binaryBytes,
	sha256,
	N8nRest,
	N8nPublicApi,
	measureRssRise,
} = require('../lib');

jest.setTimeout(300_000);

const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
const MiB = 1024 * 1024;
const FILE_BYTES = 200 * MiB;
const COMPANY = 'FR1001';
const MONTH = '202610'; // completed for every seeded company
const WORKFLOW_ID = 'wfLargePayment1';
const WEBHOOK_PATH = 'pp-large-payment-file';

let sandbox;
let instance;
let server;
let api;

beforeAll(async () => {
	await ensureN8nInstalled();
	sandbox = await startTestSandbox({ paymentFileBytes: FILE_BYTES });
	instance = await createInstance();
	const accessToken = sandbox.issueToken({
		companyId: COMPANY,
		scopes: ALL_SCOPES,
		kind: 'apiKey',
	}).access_token;
	const credential = accessTokenCredential({
		id: 'ppLargeToken01',
		name: 'Token FR',
		sandbox,
		accessToken,
	});
	await instance.cli.importCredentials([credential]);
	await instance.cli.importWorkflows([
		chainWorkflow(
			WORKFLOW_ID,
			'200 MiB payment file',
			[
				partnerPayrollNode(
					'Payment file',
					{ resource: 'payroll', operation: 'downloadPaymentFile', month: MONTH },
					credential,
				),
			],
			// Answers the item's JSON only: the file stays in n8n's binary store.
			{ trigger: webhookTrigger(WEBHOOK_PATH, 'firstEntryJson') },
		),
	]);
	await instance.cli.publishWorkflow(WORKFLOW_ID);
	server = await instance.start();
	const rest = new N8nRest(instance.url);
	await rest.ensureOwner();
	api = new N8nPublicApi(instance.url, await rest.createApiKey('e2e-large-download'));
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await instance?.stop();
	await sandbox?.close();
});

it('downloads a 200 MiB payment file with every byte, n8n memory rising by less than the file', async () => {
	const expected = sandbox.seed.paymentFile(COMPANY, MONTH);
	expect(expected.length).toBe(FILE_BYTES);

	const measured = await measureRssRise(server.pid, async () => {
		const response = await fetch(`${instance.url}/webhook/${WEBHOOK_PATH}`, {
			signal: AbortSignal.timeout(240_000),
		});
		return { status: response.status, body: await response.json() };
	});
	expect(measured.result.status).toBe(200);
	expect(measured.result.body).toMatchObject({
		companyId: COMPANY,
		month: MONTH,
		fileSize: FILE_BYTES,
	});

	const [execution] = await api.executions(WORKFLOW_ID);
	expect(execution.status).toBe('success');
	const [item] = nodeItems(execution, 'Payment file');
	expect(item.binary.data).toMatchObject({
		mimeType: 'application/octet-stream',
		fileName: `payment-file-${COMPANY}-${MONTH}`,
	});
	const bytes = binaryBytes(instance.userFolder, item.binary.data);
	expect(bytes.length).toBe(FILE_BYTES);
	expect(sha256(bytes)).toBe(sha256(expected));

	// The figure a user with a small container cares about, printed for the record.
	console.log(
		`200 MiB payment file in n8n ${instance.runtime.n8nVersion}: RSS rise ${(measured.rise / MiB).toFixed(1)} MiB ` +
			`(${(measured.rise / FILE_BYTES).toFixed(2)} × the file; baseline ${(measured.baseline / MiB).toFixed(0)} MiB, ` +
			`${measured.processes} processes, ${measured.samples} samples)`,
	);
	expect(measured.samples).toBeGreaterThan(10);
	expect(measured.rise).toBeLessThan(FILE_BYTES);
});
