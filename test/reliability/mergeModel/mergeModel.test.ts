import fc from 'fast-check';

import { modelSettings, print } from '../../support/model-settings';
import { writeReportSectionIfAsked } from '../../support/report';
import { fakeWait as mockFakeWait } from '../triggerModel/clock';
import { MergeRunner, startModelService, stepArb, violations, type Step } from './mergeRunner';

// The model-based test of the two triggers' merge (issue 37): random histories of completions and
// deleted runs (the month's status goes back to the run before: that run must not start again),
// Svix deliveries (lost, refused, abandoned, during a poll, dropped, replayed, given up by Svix), polls,
// restarts and publications (their activation poll failing or not, a delivery around it), run against
// the real webhook and polling triggers; every run must start the workflow exactly once
// (mergeRunner.ts says when a run Svix gave up on may start never).
// MODEL_RUNS sets the number of histories (2,000 by default), MODEL_SEED replays one run.

// Waits move the history's clock instead of sleeping.
jest.mock('../../../nodes/shared/wait', () => ({
	wait: async (ms: number, signal?: AbortSignal) => await mockFakeWait(ms, signal),
}));

const { runs: RUNS, seed: SEED } = modelSettings();
let stub: { url: string; close(): Promise<void> };
let current: MergeRunner | undefined;

beforeAll(async () => {
	stub = await startModelService(() => current);
});
afterAll(async () => await stub.close());

it(
	`${RUNS} random histories: every run starts the workflow exactly once (seed ${SEED})`,
	async () => {
		const started = Date.now();
		let histories = 0;
		let runs = 0;
		// Runs whose every message Svix gave up, and those of them the end's polls had to start.
		let pollOnly = 0;
		let pollOnlyOwed = 0;
		// How often the histories reached each situation of the activations.
		const reached = new Map<string, number>();
		await fc.assert(
			fc.asyncProperty(fc.array(stepArb, { maxLength: 24 }), async (steps: Step[]) => {
				current = new MergeRunner(`${stub.url}/api/v1`);
				const run = await current.run(steps);
				histories += 1;
				runs += run.runs.length;
				pollOnly += run.pollOnly.length;
				pollOnlyOwed += run.pollOnly.filter(
					(key) => run.current.includes(key) && !run.baseline.includes(key),
				).length;
				for (const [situation, times] of run.reached) {
					reached.set(situation, (reached.get(situation) ?? 0) + times);
				}
				const found = violations(run);
				if (found.length) {
					throw new Error(
						['A run did not start exactly once:', ...found, 'History:', ...run.transcript].join(
							'\n',
						),
					);
				}
			}),
			{ numRuns: RUNS, seed: SEED },
		);
		const seconds = Math.round((Date.now() - started) / 1000);
		const number = (value: number) => value.toLocaleString('en-US');
		const situations = [...reached]
			.sort(([a], [b]) => a.localeCompare(b))
			.map(([situation, times]) => `${situation} ${number(times)}`)
			.join(', ');
		print(
			`merge model: ${histories} histories, ${runs} runs (${pollOnly} given up by Svix, ${pollOnlyOwed} of them the poll's to start), 0 violations, ${seconds} s, seed ${SEED}; reached: ${situations}`,
		);
		writeReportSectionIfAsked(
			'MODEL_REPORT',
			'merge-model',
			[
				"## The triggers' merge: model-based test",
				'',
				'Written by `npm run reliability:merge` from `test/reliability/mergeModel/`: random histories of one',
				'workflow with both Partner Payroll triggers (months completed and run again, a run deleted so that the',
				'month goes back to the run before, announced again or not; each run a Svix message delivered, lost,',
				'refused by n8n, abandoned by the sender while n8n goes on, delivered while a poll runs (n8n then',
				'creating the execution or failing to), dropped by n8n without any answer, or replayed; Svix giving up on',
				'a failing message; polls; n8n restarts; the workflow published again), against the real triggers. As n8n',
				"does, the workflow's activation (its publication, and each start of n8n) runs the poll once at once,",
				'before any scheduled poll. That poll may fail (the service answers 503, cuts the connection as a timeout',
				'ends, or refuses the token): the activation fails, n8n retries a start with the static data it loaded',
				"(n8n 2.8.4's retry is a new activation to the trigger, 2.40.7's the same) and undoes a publication until",
				'the next one, no poll is scheduled meanwhile, and a webhook answers 404 while the workflow is not',
				'published. A delivery may come before the activation loads its copy, after, while its poll runs, or',
				"after the poll and before n8n saves the copy. Static data is saved as n8n saves it: each webhook request's",
				"copy and the poll's activation copy saved whole (after a poll that returned items, and after the",
				"activation when it changed), the last save wins, n8n 2.40's cleared change mark included. At the end Svix",
				'delivers every failing message it has not given up on and the poll runs twice. Property: every run',
				'(company, month, end instant) starts the workflow exactly once. A run whose every message Svix gave up',
				"starts at most once, and exactly once (by the poll) when it is its month's status at the end, unless the",
				'poll first saw it already completed (its baseline); a run whose hand-over n8n dropped without an answer',
				'stays held until n8n restarts.',
				'',
				'| Histories | Runs | Violations | Seed | Run time |',
				'|---|---|---|---|---|',
				`| ${number(histories)} | ${number(runs)} | 0 | ${SEED} | ${seconds} s |`,
				'',
				`Situations of the activations reached: ${situations}.`,
				'',
				`Replay with \`MODEL_SEED=${SEED} MODEL_RUNS=${histories} npx jest test/reliability/mergeModel\`.`,
				'Not modelled: two saves that the database applies in the other order than n8n issued them,',
				'followed by a crash before the next save; separate webhook processes (see docs/exactly-once.md); a',
				'poll over several companies (the Partner API credential: `test/nodes/partnerTriggersTogether.test.ts`);',
				'an activation error whose message names "Authorization", which n8n never retries (only a setup error of',
				"the trigger's); n8n 2.40's publication service and durable scheduler (off by default).",
			].join('\n'),
		);
	},
	Math.max(600_000, RUNS * 300),
);
