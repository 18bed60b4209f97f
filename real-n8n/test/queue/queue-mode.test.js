'use strict';
// The package in n8n's queue mode, as teams that outgrow one machine run it: Redis, Postgres, a main
// instance and two workers (`n8n worker`), each with the package installed in its own user folder,
// binary data in the database. Shows that every file operation runs on a worker with its bytes intact
// and its binary data in Postgres (not on a disk the main cannot see), that 20 executions started at
// once all succeed on both workers, and that the trigger (polled by the main) fires exactly once, also
// after a worker and then the main are restarted.
//
// QUEUE_E2E_FAULT checks that this suite notices a broken setup (each must make it fail):
//   no-package-on-worker-2   the package is missing from worker-2's user folder
//   filesystem-binary-data   N8N_DEFAULT_BINARY_DATA_MODE=filesystem instead of database
const fs = require('node:fs');
const {
	n8nRuntime,
	startTestSandbox,
	accessTokenCredential,
	partnerPayrollNode,
	chainWorkflow,
	webhookTrigger,
	ALL_SCOPES,
	N8nRest,
	N8nPublicApi,
	listedDocuments,
	nodeItems,
	sha256,
	payrollTriggerWorkflow,
	setPayrollStatus,
	statusPollsOf,
	waitForStatusPolls,
	triggerItems,
	pollSchedule,
} = require('../../lib');
const { packedQueueCluster, prepareQueueLab, stopQueueLab } = require('../support/queue-lab');

const RUNTIME = n8nRuntime();
const SCHEDULE = pollSchedule();
const FAULT = process.env.QUEUE_E2E_FAULT ?? '';
const SETUP_TIMEOUT_MS = 25 * 60_000; // includes installing n8n, Redis and Postgres when missing
jest.setTimeout(SCHEDULE.waitMs(4) + 120_000);

const FR = 'FR1001';
const GB = 'GB3001';
const MONTH = '202610'; // completed for every seeded company
// Months the sandbox has not completed: each phase of the trigger test completes one.
const TRIGGER_MONTHS = ['202701', '202702', '202703'];
const IDS = { files: 'wfQueueFiles01', load: 'wfQueueLoad001', trigger: 'wfQueueTrigger1' };
const CONCURRENT_EXECUTIONS = 20;

let sandbox;
let cluster;
let rest;
let api;
let dataDir;
let credentials;

function workflows() {
	return [
		// Every file operation of the package in one execution.
		chainWorkflow(
			IDS.files,
			'Queue: every file operation',
			[
				partnerPayrollNode(
					'Payment file',
					{ resource: 'payroll', operation: 'downloadPaymentFile', month: MONTH },
					credentials.FR,
				),
				partnerPayrollNode(
					'Accounting CSV',
					{ resource: 'accounting', operation: 'downloadCsv', month: MONTH },
					credentials.FR,
				),
				partnerPayrollNode(
					'Income tax documents',
					{
						resource: 'document',
						operation: 'getIncomeTaxDocuments',
						options: { downloadFiles: true },
					},
					credentials.GB,
				),
				partnerPayrollNode(
					'Download document',
					{ resource: 'document', operation: 'download', documentId: '={{ $json.documentUrl }}' },
					credentials.GB,
				),
			],
			{ trigger: webhookTrigger('pp-queue-files', 'allEntries') },
		),
		// The payment file, answered as the webhook's response body.
		chainWorkflow(
			IDS.load,
			'Queue: payment file',
			[
				partnerPayrollNode(
					'Payment file',
					{ resource: 'payroll', operation: 'downloadPaymentFile', month: MONTH },
					credentials.FR,
				),
			],
			{ trigger: webhookTrigger('pp-queue-load', 'firstEntryBinary') },
		),
		payrollTriggerWorkflow({
			id: IDS.trigger,
			name: 'Queue: payroll completed',
			credential: credentials.FR,
			parameters: { companyId: FR, months: 'specific', specificMonths: TRIGGER_MONTHS.join(', ') },
			schedule: SCHEDULE,
		}),
	];
}

/** Binary data ids of a node's first output, with the bytes the main serves for each. */
async function filesOf(run, nodeName) {
	const files = [];
	for (const item of nodeItems(run, nodeName)) {
		for (const binary of Object.values(item.binary ?? {})) {
			files.push({ json: item.json, binary, bytes: await rest.binaryData(binary.id) });
		}
	}
	return files;
}

beforeAll(async () => {
	dataDir = await prepareQueueLab(RUNTIME, 'mode');
	sandbox = await startTestSandbox();
	const token = (companyId) =>
		sandbox.issueToken({ companyId, scopes: [...ALL_SCOPES], kind: 'apiKey' }).access_token;
	credentials = {
		FR: accessTokenCredential({
			id: 'ppQueueTokenFR1',
			name: 'Token FR',
			sandbox,
			accessToken: token(FR),
		}),
		GB: accessTokenCredential({
			id: 'ppQueueTokenGB1',
			name: 'Token GB',
			sandbox,
			accessToken: token(GB),
		}),
	};
	cluster = await packedQueueCluster(dataDir, {
		runtime: RUNTIME,
		workers: 2,
		packageOn: (name) => !(FAULT === 'no-package-on-worker-2' && name === 'worker-2'),
		binaryDataMode: FAULT === 'filesystem-binary-data' ? 'filesystem' : 'database',
	});
	await cluster.cli.importCredentials(Object.values(credentials));
	await cluster.cli.importWorkflows(workflows());
	for (const id of Object.values(IDS)) await cluster.cli.publishWorkflow(id);
	await cluster.startAll();
	rest = new N8nRest(cluster.url);
	await rest.ensureOwner();
	api = new N8nPublicApi(cluster.url, await rest.createApiKey('e2e-queue'), {
		executionIds: cluster.executionIds,
	});
}, SETUP_TIMEOUT_MS);

afterAll(async () => await stopQueueLab({ cluster, sandbox, dataDir }));

describe('file operations on a worker', () => {
	let execution;

	beforeAll(async () => {
		const response = await fetch(`${cluster.url}/webhook/pp-queue-files`);
		expect(response.status).toBe(200);
		[execution] = await api.finishedExecutions(IDS.files, 1);
	});

	it('the execution succeeded, and ran on exactly one worker, not on the main', () => {
		expect(execution.status).toBe('success');
		expect(execution.data.resultData.error).toBeUndefined();
		const ranBy = cluster.executionsByWorker()[execution.id];
		expect(ranBy).toHaveLength(1);
		expect(['worker-1', 'worker-2']).toContain(ranBy[0]);
		expect(fs.readFileSync(cluster.main.logFile, 'utf8')).not.toMatch(
			new RegExp(`started execution ${execution.id}\\b`),
		);
	});

	it('payment file, CSV and every PDF keep their bytes (sha256 as the sandbox serves them)', async () => {
		const run = execution;
		const [paymentFile] = await filesOf(run, 'Payment file');
		expect(sha256(paymentFile.bytes)).toBe(sha256(sandbox.seed.paymentFile(FR, MONTH)));
		const [csv] = await filesOf(run, 'Accounting CSV');
		expect(sha256(csv.bytes)).toBe(sha256(sandbox.seed.accountingCsv(FR, MONTH)));

		const documents = listedDocuments(sandbox, GB, 'incomeTaxes');
		expect(documents.length).toBeGreaterThan(0);
		for (const nodeName of ['Income tax documents', 'Download document']) {
			const pdfs = await filesOf(run, nodeName);
			expect(pdfs.map((pdf) => pdf.json.documentId)).toEqual(
				documents.map((document) => document.documentId),
			);
			for (const pdf of pdfs) {
				expect(pdf.binary.mimeType).toBe('application/pdf');
				expect(sha256(pdf.bytes)).toBe(sha256(sandbox.seed.document(GB, pdf.json.documentId)));
			}
		}
	});

	it('binary data is in Postgres (database mode), none on an instance disk', async () => {
		const ids = [];
		for (const nodeName of [
			'Payment file',
			'Accounting CSV',
			'Income tax documents',
			'Download document',
		]) {
			for (const item of nodeItems(execution, nodeName))
				ids.push(...Object.values(item.binary).map((binary) => binary.id));
		}
		expect(ids.length).toBeGreaterThanOrEqual(4);
		for (const id of ids) expect(id).toMatch(/^database:/);
		const rows = Number(cluster.postgres.query('SELECT count(*) FROM binary_data').trim());
		expect(rows).toBeGreaterThanOrEqual(ids.length);
		expect(cluster.filesystemBinaryFiles()).toEqual([]);
	});
});

describe(`${CONCURRENT_EXECUTIONS} executions started at once`, () => {
	let responses;
	let executions;

	beforeAll(async () => {
		responses = await Promise.all(
			Array.from({ length: CONCURRENT_EXECUTIONS }, async () => {
				// Each answer waits for its execution on a worker. With two other suites beside this cluster (main,
				// two workers, Postgres, Redis) on two cores, 20 executions once took longer than 120 s in CI.
				const response = await fetch(`${cluster.url}/webhook/pp-queue-load`, {
					signal: AbortSignal.timeout(300_000),
				});
				return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
			}),
		);
		executions = await api.finishedExecutions(IDS.load, CONCURRENT_EXECUTIONS);
	});

	it('all succeed, each answering the payment file with every byte', () => {
		const expected = sha256(sandbox.seed.paymentFile(FR, MONTH));
		expect(responses.map((response) => response.status)).toEqual(
			Array(CONCURRENT_EXECUTIONS).fill(200),
		);
		expect(responses.map((response) => sha256(response.bytes))).toEqual(
			Array(CONCURRENT_EXECUTIONS).fill(expected),
		);
		expect(executions).toHaveLength(CONCURRENT_EXECUTIONS);
		expect(executions.map((execution) => execution.status)).toEqual(
			Array(CONCURRENT_EXECUTIONS).fill('success'),
		);
	});

	it('are spread over both workers, each execution run once', () => {
		const ranBy = cluster.executionsByWorker();
		const perWorker = { 'worker-1': 0, 'worker-2': 0 };
		for (const execution of executions) {
			expect(ranBy[execution.id]).toHaveLength(1);
			perWorker[ranBy[execution.id][0]] += 1;
		}
		expect(perWorker['worker-1']).toBeGreaterThan(0);
		expect(perWorker['worker-2']).toBeGreaterThan(0);
	});
});

describe('the trigger, polled by the main, with two workers', () => {
	// One status request per watched month and poll: the first month's requests count the polls.
	const polls = () => statusPollsOf(sandbox, FR, TRIGGER_MONTHS[0]);
	const waitForPolls = (since, count) =>
		waitForStatusPolls(sandbox, {
			companyId: FR,
			month: TRIGGER_MONTHS[0],
			since,
			count,
			schedule: SCHEDULE,
		});
	const complete = (month) =>
		setPayrollStatus(sandbox, {
			companyId: FR,
			month,
			status: 'completed',
			executionEndDate: '2027-01-28T16:00:00.000Z',
		});
	const firedMonths = async (count) => {
		const executions = await api.finishedExecutions(IDS.trigger, count, SCHEDULE.waitMs(2));
		const ranBy = cluster.executionsByWorker();
		for (const execution of executions) {
			expect(execution.status).toBe('success');
			expect(ranBy[execution.id]).toHaveLength(1);
		}
		return executions
			.flatMap((execution) => triggerItems(execution).map((item) => item.month))
			.sort();
	};

	it('records the months at activation and fires nothing', async () => {
		await waitForPolls(0, 1 + SCHEDULE.quietPolls);
		expect(await api.executions(IDS.trigger)).toEqual([]);
	});

	it('a month completed: exactly one execution, run by a worker', async () => {
		await complete(TRIGGER_MONTHS[0]);
		expect(await firedMonths(1)).toEqual([TRIGGER_MONTHS[0]]);
		await waitForPolls(await polls(), SCHEDULE.quietPolls);
		expect(await firedMonths(1)).toEqual([TRIGGER_MONTHS[0]]);
	});

	it('after a worker restarts: the next month fires exactly once', async () => {
		await cluster.stopWorker(0);
		await cluster.startWorker(0);
		await complete(TRIGGER_MONTHS[1]);
		expect(await firedMonths(2)).toEqual(TRIGGER_MONTHS.slice(0, 2));
		await waitForPolls(await polls(), SCHEDULE.quietPolls);
		expect(await api.executions(IDS.trigger)).toHaveLength(2);
	});

	it('after the main restarts: nothing fires again, the next month fires exactly once', async () => {
		await cluster.stopMain();
		const before = await polls();
		await cluster.startMain();
		await waitForPolls(before, 1); // the activation's own poll
		expect(await api.executions(IDS.trigger)).toHaveLength(2);
		await complete(TRIGGER_MONTHS[2]);
		expect(await firedMonths(3)).toEqual(TRIGGER_MONTHS);
		await waitForPolls(await polls(), SCHEDULE.quietPolls);
		expect(await api.executions(IDS.trigger)).toHaveLength(3);
	});
});
