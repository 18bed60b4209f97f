'use strict';
// Issue 37's end-to-end promise in one n8n process (both rows of the matrix), with n8n's default
// concurrency: a partner's month-end (test/support/month-end.js). 300 companies in one Partner API
// credential; three month-ends in a row, each completing the month of 100 of them within the same second;
// every event delivered twice at once and polled. n8n is restarted in the middle of the second month-end,
// once half of its files are stored: deliveries refused meanwhile come back as Svix's retries, and the
// polls after the restart find runs already started. Each month-end must leave exactly one stored file per
// completed company, that company's own by sha256, none missing, from exactly one successful execution each.
const {
	createInstance,
	ensureN8nInstalled,
	filesFolder,
	N8nPublicApi,
	N8nRest,
	pollSchedule,
	startTestSandbox,
} = require('../lib');
const {
	EXPECTED_OUTCOME,
	MONTH_END,
	importMonthEnd,
	monthEndBatches,
	registerMonthEndEndpoints,
	runMonthEnd,
	waitForBaseline,
} = require('./support/month-end');

const SCHEDULE = pollSchedule();
const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
jest.setTimeout(6 * 60_000);

let sandbox;
let instance;
let api;

beforeAll(async () => {
	await ensureN8nInstalled();
	sandbox = await startTestSandbox({ generatedCompanies: MONTH_END.generatedCompanies });
	instance = await createInstance({ prefix: 'n8n-e2e-month-end-' });
	const signingSecret = await importMonthEnd(instance.cli, sandbox, { pollTimes: SCHEDULE.pollTimes });
	await registerMonthEndEndpoints(sandbox, { n8nUrl: instance.url, signingSecret });
	await instance.start();
	const rest = new N8nRest(instance.url);
	await rest.ensureOwner();
	api = new N8nPublicApi(instance.url, await rest.createApiKey('e2e-month-end'));
	await waitForBaseline(sandbox, SCHEDULE);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.close();
});

const executions = () => api.executions(MONTH_END.workflowId, { includeData: false });

for (let run = 1; run <= MONTH_END.runs; run += 1) {
	const restarted = run === MONTH_END.restartedRun;
	test(`month-end ${run} of ${MONTH_END.runs}${restarted ? ', n8n restarted in the middle' : ''}: 100 of the 300 companies completed within one second, each delivered twice and polled: one stored file per company, its own`, async () => {
		const companies = monthEndBatches(sandbox)[run - 1];
		const before = new Set((await executions()).map(({ id }) => id));
		const { outcome, deliveries, endDates } = await runMonthEnd({
			sandbox,
			companies,
			schedule: SCHEDULE,
			folders: () => [filesFolder(instance.userFolder)],
			executionsDone: async () => (await executions()).every((execution) => execution.stoppedAt),
			restart: restarted
				? async () => {
						await instance.stop(MONTH_END.restartGraceMs);
						await instance.start();
					}
				: undefined,
		});
		expect(outcome).toEqual({ ...EXPECTED_OUTCOME, executionIds: expect.any(Array) });
		expect(companies).toHaveLength(100);
		expect(endDates).toHaveLength(1);
		expect(deliveries).toBe(2 * companies.length);
		// Every execution of the month-end succeeded and stored one file: none started without one.
		const started = (await executions()).filter(({ id }) => !before.has(id));
		expect(started.filter(({ status }) => status !== 'success').map(({ id, status }) => ({ id, status }))).toEqual([]);
		expect(started.map(({ id }) => id).sort((a, b) => Number(a) - Number(b))).toEqual(outcome.executionIds);
	});
}
