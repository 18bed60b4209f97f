import { writeReportSectionIfAsked } from '../../support/report';

interface ModelFigures {
	histories: number;
	polls: number;
	requests: number;
	items: number;
	violating: number;
	seconds: number;
	seed: number;
	firstCompletionOnly: boolean;
	failure?: string;
}

/** The model-based test's section of docs/reliability.md, when MODEL_REPORT names the file. */
export function writeModelReport(figures: ModelFigures): void {
	const number = (value: number) => value.toLocaleString('en-US');
	const lines = [
		"## The trigger's model-based test",
		'',
		'Written by `npm run reliability:model` from `test/reliability/triggerModel/`: random histories of one',
		'Partner Payroll Trigger node (statuses changing between and during polls, reopenings, new end dates,',
		'end dates re-formatted, documents added in batches larger than one poll can download, faults on each',
		'request: 429, 500, 503, connection reset, timeout, answers slower than the budget, PDF outages and',
		'permanent 404s; restarts and publishes that drop the unsaved static data, edits of Months and time',
		'zone, renames, company switches, clock jumps across month ends and DST changes), each run against the',
		"real poll code in n8n-core's PollContext over real HTTP with one fake clock, then compared with the",
		'reference model (`model.ts`: the promise of issue 19; a run is lost too when its month was one the',
		'trigger promised to watch, left unfinished or brought in by the calendar, and no poll asked about it).',
		'Every history ends with fault-free polls. `examples.test.ts` runs histories that random ones seldom',
		'reach (time zone edits that move the month back at a month end, outages over a whole month).',
		'',
		'| Histories | Polls | Requests | Events emitted | Histories with a violation | Seed | Run time |',
		'|---|---|---|---|---|---|---|',
		`| ${number(figures.histories)} | ${number(figures.polls)} | ${number(figures.requests)} | ${number(figures.items)} | ${number(figures.violating)} | ${figures.seed} | ${Math.round(figures.seconds)} s |`,
		'',
		figures.firstCompletionOnly
			? 'The option `firstCompletionOnly` was part of the histories.'
			: 'The node has no option `firstCompletionOnly`: the histories did not use it.',
		`Replay with \`MODEL_SEED=${figures.seed} MODEL_RUNS=${figures.histories} npx jest test/reliability/triggerModel\`.`,
	];
	if (figures.failure) {
		lines.push(
			'',
			'The first violation, shrunk:',
			'',
			'```',
			figures.failure.slice(0, 20_000),
			'```',
		);
	}
	writeReportSectionIfAsked('MODEL_REPORT', 'trigger-model', lines.join('\n'));
}
