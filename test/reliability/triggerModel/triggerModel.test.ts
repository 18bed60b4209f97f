import fc from 'fast-check';

import { modelSettings, print } from '../../support/model-settings';
import { startStubService } from '../../support/stub-service';
import { fakeWait as mockFakeWait } from './clock';
import { historyArb, type History } from './histories';
import { check, PROPERTIES, type Property, type Violation } from './model';
import { HistoryRunner, triggerHasOption, type HistoryRun } from './runner';
import { ModelService } from './service';
import { writeModelReport } from './report';

// The model-based test of the Partner Payroll Trigger (issue 19): random histories of the service,
// faults, restarts, edits and clock jumps, run against the real poll code, compared with the
// reference model (model.ts). MODEL_RUNS sets the number of histories (2,000 by default, 50,000 in
// `npm run reliability:model`), MODEL_SEED replays a run; a failure prints the shrunk history.
// MODEL_DISCOVER=1 looks for a minimal history of each property in turn, without failing.

// Waits move the history's clock instead of sleeping.
jest.mock('../../../nodes/shared/wait', () => ({
	wait: async (ms: number, signal?: AbortSignal) => await mockFakeWait(ms, signal),
}));

const settings = modelSettings();
const { runs: RUNS, seed: SEED, maxSteps: MAX_STEPS, discover: DISCOVER } = settings;
const firstCompletionOnly = triggerHasOption('firstCompletionOnly');
/** About 25 ms a history on 2 busy cores; generous, so a long run is never cut by Jest. */
const TIMEOUT_MS = Math.max(600_000, RUNS * 250);

let stub: { url: string; close(): Promise<void> };
let current = new ModelService();

beforeAll(async () => {
	stub = await startStubService(async (request) => await current.handle(request));
});
afterAll(async () => await stub.close());

interface Figures {
	histories: number;
	polls: number;
	requests: number;
	items: number;
	violating: number;
}

async function runOne(history: History): Promise<{ run: HistoryRun; violations: Violation[] }> {
	current = new ModelService();
	const runner = new HistoryRunner(
		history,
		current,
		{
			partnerPayrollApi: {
				baseUrl: `${stub.url}/api/v1`,
				accessToken: 'model-token',
				authServerUrl: '',
			},
		},
		settings.fireOnRerun,
	);
	const run = await runner.run();
	return { run, violations: check(history, run) };
}

function explain(run: HistoryRun, violations: Violation[]): string {
	return [
		'The trigger broke its promise in this history:',
		...run.transcript.map((line) => `  ${line}`),
		'Violations:',
		...violations.map((violation) => `  - ${violation.property}: ${violation.detail}`),
	].join('\n');
}

/** fast-check's report (seed, path, counterexample) with the shrunk history's readable transcript. */
function reportOf(details: fc.RunDetails<[History]>): string {
	const error = details.errorInstance instanceof Error ? details.errorInstance.message : '';
	return `${fc.defaultReportMessage(details)}\n\n${error}`;
}

const arbitrary = historyArb({
	maxSteps: MAX_STEPS,
	firstCompletionOnly,
	exclude: settings.exclude,
});

if (!DISCOVER) {
	test(
		`${RUNS} random histories keep the trigger's promise (seed ${SEED})`,
		async () => {
			const figures: Figures = { histories: 0, polls: 0, requests: 0, items: 0, violating: 0 };
			let counting = true;
			const started = performance.now();
			const details = await fc.check(
				fc.asyncProperty(arbitrary, async (history) => {
					const { run, violations } = await runOne(history);
					if (counting) {
						figures.histories++;
						figures.polls += run.polls;
						figures.requests += run.requests;
						figures.items += run.items;
						if (violations.length) {
							figures.violating++;
							counting = false; // shrinking runs are not counted
						}
					}
					if (violations.length) throw new Error(explain(run, violations));
				}),
				{ numRuns: RUNS, seed: SEED, endOnFailure: false },
			);
			const seconds = (performance.now() - started) / 1000;
			print(
				`trigger model: ${figures.histories} histories, ${figures.polls} polls, ${figures.requests} requests, ${figures.items} items, ${figures.violating} violating, ${seconds.toFixed(0)} s, seed ${SEED}`,
			);
			writeModelReport({
				...figures,
				seconds,
				seed: SEED,
				firstCompletionOnly,
				failure: details.failed ? reportOf(details) : undefined,
			});
			if (details.failed) throw new Error(reportOf(details));
		},
		TIMEOUT_MS,
	);
} else {
	test.each(PROPERTIES)(
		'a minimal history breaking "%s", if any',
		async (property: Property) => {
			const details = await fc.check(
				fc.asyncProperty(arbitrary, async (history) => {
					const { run, violations } = await runOne(history);
					const mine = violations.filter((violation) => violation.property === property);
					if (mine.length) throw new Error(explain(run, mine));
				}),
				{ numRuns: RUNS, seed: SEED },
			);
			print(
				details.failed
					? `${property}: ${reportOf(details)}`
					: `${property}: no violation in ${RUNS} histories (seed ${SEED})`,
			);
		},
		TIMEOUT_MS,
	);
}
