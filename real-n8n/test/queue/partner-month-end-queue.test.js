'use strict';
// Issue 37's end-to-end promise in n8n's queue mode: a partner's month-end (test/support/month-end.js) with
// Redis, Postgres, a main instance (the triggers: polls and webhook deliveries) and two workers at n8n's
// default concurrency (10 executions each). 300 companies in one Partner API credential; three month-ends
// in a row, each completing the month of 100 of them within the same second; every event delivered twice at
// once to the main and polled by it. The main is restarted in the middle of the second month-end, once half
// of its files are stored. Each month-end must leave exactly one stored file per completed company (the
// workers write them, each into its own folder), that company's own by sha256, none missing, from exactly
// one successful execution each, run by one worker.
const {
	filesFolder,
	n8nRuntime,
	N8nRest,
	pollSchedule,
	startTestSandbox,
} = require('../../lib');
const { packedQueueCluster, prepareQueueLab, stopQueueLab } = require('../support/queue-lab');
const {
	EXPECTED_OUTCOME,
	MONTH_END,
	importMonthEnd,
	monthEndBatches,
	registerMonthEndEndpoints,
	runMonthEnd,
	waitForBaseline,
} = require('../support/month-end');

const RUNTIME = n8nRuntime();
const SCHEDULE = pollSchedule();
const SETUP_TIMEOUT_MS = 25 * 60_000; // includes installing n8n, Redis and Postgres when missing
jest.setTimeout(6 * 60_000);

let sandbox;
let cluster;
let dataDir;

beforeAll(async () => {
	dataDir = await prepareQueueLab(RUNTIME, 'month-end');
	sandbox = await startTestSandbox({ generatedCompanies: MONTH_END.generatedCompanies });
	cluster = await packedQueueCluster(dataDir, { runtime: RUNTIME, workers: 2 });
	const signingSecret = await importMonthEnd(cluster.cli, sandbox, { pollTimes: SCHEDULE.pollTimes });
	await registerMonthEndEndpoints(sandbox, { n8nUrl: cluster.url, signingSecret });
	await cluster.startAll();
	await new N8nRest(cluster.url).ensureOwner();
	await waitForBaseline(sandbox, SCHEDULE);
}, SETUP_TIMEOUT_MS);

afterAll(async () => await stopQueueLab({ cluster, sandbox, dataDir }));

/** The workflow's executions in n8n's database: {id, status, finished}. */
function executions() {
	const rows = cluster.postgres.query(
		`SELECT id, status, "stoppedAt" IS NOT NULL FROM execution_entity WHERE "workflowId" = '${MONTH_END.workflowId}'`,
	);
	return rows
		.split('\n')
		.filter(Boolean)
		.map((row) => {
			const [id, status, finished] = row.split('|');
			return { id, status, finished: finished === 't' };
		});
}

for (let run = 1; run <= MONTH_END.runs; run += 1) {
	const restarted = run === MONTH_END.restartedRun;
	test(`month-end ${run} of ${MONTH_END.runs}${restarted ? ', the main restarted in the middle' : ''}: 100 of the 300 companies completed within one second, each delivered twice and polled: one stored file per company, its own, each run by one worker`, async () => {
		const companies = monthEndBatches(sandbox)[run - 1];
		const before = new Set(executions().map(({ id }) => id));
		const { outcome, deliveries, endDates } = await runMonthEnd({
			sandbox,
			companies,
			schedule: SCHEDULE,
			folders: () => [cluster.main, ...cluster.workers].map(({ folder }) => filesFolder(folder)),
			executionsDone: async () => executions().every(({ finished }) => finished),
			restart: restarted
				? async () => {
						await cluster.stopMain(MONTH_END.restartGraceMs);
						await cluster.startMain();
					}
				: undefined,
		});
		expect(outcome).toEqual({ ...EXPECTED_OUTCOME, executionIds: expect.any(Array) });
		expect(companies).toHaveLength(100);
		expect(endDates).toHaveLength(1);
		expect(deliveries).toBe(2 * companies.length);
		// Every execution of the month-end succeeded, stored one file and ran on exactly one worker.
		const started = executions().filter(({ id }) => !before.has(id));
		expect(started.filter(({ status }) => status !== 'success').map(({ id, status }) => ({ id, status }))).toEqual([]);
		expect(started.map(({ id }) => id).sort((a, b) => Number(a) - Number(b))).toEqual(outcome.executionIds);
		const ranBy = cluster.executionsByWorker();
		expect(started.filter(({ id }) => ranBy[id]?.length !== 1).map(({ id }) => ({ id, ranBy: ranBy[id] }))).toEqual([]);
	});
}
