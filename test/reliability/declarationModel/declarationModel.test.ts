import fc from 'fast-check';

import { modelSettings, print } from '../../support/model-settings';
import { writeReportSectionIfAsked } from '../../support/report';
import { DeclarationWorld, stepArb, violations, type Step } from './declarationRunner';

// The model-based test of billing declarations across executions (issue 38): random histories of
// executions on three processes, re-runs, crashes, lost answers and refusals, against the real record
// (record.ts) on a table whose every request is atomic on its own. MODEL_RUNS sets the number of
// histories (2,000 by default), MODEL_SEED replays one run.

const { runs: RUNS, seed: SEED } = modelSettings();

it(
	`${RUNS} random histories: each declaration is recorded by the service once (seed ${SEED})`,
	async () => {
		const started = Date.now();
		let histories = 0;
		let executions = 0;
		let sends = 0;
		await fc.assert(
			fc.asyncProperty(
				fc.array(stepArb, { minLength: 10, maxLength: 80, size: 'max' }),
				fc.integer({ min: 1, max: 0x7fffffff }),
				async (steps: Step[], drainSeed: number) => {
					const world = new DeclarationWorld();
					for (const step of steps) await world.apply(step);
					let state = drainSeed;
					await world.drain(() => (state = (state * 48271) % 0x7fffffff) / 0x7fffffff);
					histories += 1;
					executions += world.executions.length;
					sends += world.recorded.length;
					const found = violations(world);
					if (found.length) {
						throw new Error(
							['The record failed:', ...found, 'History:', ...world.transcript].join('\n'),
						);
					}
				},
			),
			{ numRuns: RUNS, seed: SEED },
		);
		const seconds = Math.round((Date.now() - started) / 1000);
		print(
			`declaration model: ${histories} histories, ${executions} executions, ${sends} sends, 0 duplicates, ${seconds} s, seed ${SEED}`,
		);
		const number = (value: number) => value.toLocaleString('en-US');
		writeReportSectionIfAsked(
			'MODEL_REPORT',
			'declaration-model',
			[
				'## Billing declarations across executions: model-based test',
				'',
				'Written by `npm run reliability:declarations` from `test/reliability/declarationModel/`: random',
				'histories of Billing Declaration → Create executions on three n8n processes at once (a main and two',
				'queue workers), re-runs of failed executions, processes that crash at any request, answers lost after',
				'the service recorded the declaration, refusals, executions of a workflow the API key cannot read and',
				'ended executions that n8n deletes (its API answers 404 for both), against the real record (`record.ts`)',
				"on a table whose every request is atomic on its own, as n8n's public API runs it on one database. Properties:",
				'no declaration is recorded by the service twice unless Declare Again asked; an execution that says',
				'declared or already declared is right; every execution ends; in a history without faults every',
				'declaration asked for is sent.',
				'',
				'| Histories | Executions | Sends recorded | Duplicate sends | Seed | Run time |',
				'|---|---|---|---|---|---|',
				`| ${number(histories)} | ${number(executions)} | ${number(sends)} | 0 | ${SEED} | ${seconds} s |`,
				'',
				`Replay with \`MODEL_SEED=${SEED} MODEL_RUNS=${histories} npx jest test/reliability/declarationModel\`.`,
			].join('\n'),
		);
	},
	30 * 60_000,
);
