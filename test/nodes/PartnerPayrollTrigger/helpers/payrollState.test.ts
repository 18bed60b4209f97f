import {
	MAX_COMPANIES,
	withCompanyState,
} from '../../../../nodes/PartnerPayrollTrigger/helpers/companies';
import {
	FIRED_MEMORY,
	advancePayrollState,
	observeMonth,
	readPayrollState,
	sampleMonth,
	type CompanyPayrollState,
} from '../../../../nodes/PartnerPayrollTrigger/helpers/payrollState';
import {
	planPoll,
	unfinishedMonths,
} from '../../../../nodes/PartnerPayrollTrigger/helpers/pollPlan';

const OCT_END = '2026-10-28T17:42:05.000Z';
const RERUN_END = '2026-11-02T09:00:00.000Z';
const completed = (executionEndDate: string | null = OCT_END) => ({
	status: 'completed',
	executionEndDate,
});
const notCompleted = { status: 'not_completed', executionEndDate: null };
const noOptions = { fireForAlreadyCompleted: false, firstCompletionOnly: false };
const poll = { selection: 'both', currentMonth: '202611', news: [] as string[] };

describe('observeMonth', () => {
	it.each([
		['unknown → not completed', undefined, notCompleted, undefined],
		['unknown → completed', undefined, completed(), 'firstSight'],
		[
			'not completed → completed',
			{ status: 'not_completed', executionEndDate: null },
			completed(),
			'completed',
		],
		[
			'completed → same run',
			{ status: 'completed', executionEndDate: OCT_END },
			completed(),
			undefined,
		],
		[
			'completed → new run',
			{ status: 'completed', executionEndDate: OCT_END },
			completed(RERUN_END),
			'newRun',
		],
		[
			'completed → the same instant written without milliseconds',
			{ status: 'completed', executionEndDate: OCT_END },
			completed('2026-10-28T17:42:05Z'),
			undefined,
		],
		[
			'reopened → same run again',
			{ status: 'not_completed', executionEndDate: OCT_END },
			completed(),
			undefined,
		],
		[
			'reopened → new run',
			{ status: 'not_completed', executionEndDate: OCT_END },
			completed(RERUN_END),
			'newRun',
		],
		[
			'completed → reopened',
			{ status: 'completed', executionEndDate: OCT_END },
			notCompleted,
			undefined,
		],
	] as const)('%s', (_name, previous, answer, change) => {
		expect(observeMonth(previous, answer).change).toBe(change);
	});

	it('keeps the last run while a month is reopened', () => {
		expect(
			observeMonth({ status: 'completed', executionEndDate: OCT_END }, notCompleted).state,
		).toEqual({
			status: 'not_completed',
			executionEndDate: OCT_END,
		});
	});

	it('reads an unknown status as not completed', () => {
		expect(observeMonth(undefined, { status: 'processing', executionEndDate: null })).toEqual({
			state: { status: 'not_completed', executionEndDate: null },
		});
	});

	it('stores a completed answer without a date as a completion all the same', () => {
		const first = observeMonth(undefined, completed(null));
		expect(first).toEqual({
			state: { status: 'completed', executionEndDate: '' },
			change: 'firstSight',
		});
		expect(observeMonth(first.state, completed(null)).change).toBeUndefined();
	});
});

describe('advancePayrollState', () => {
	const stored: CompanyPayrollState = {
		months: {
			'202610': { status: 'completed', executionEndDate: OCT_END },
			'202611': { status: 'not_completed', executionEndDate: null },
		},
		fired: {},
		selection: 'both',
		lastPolledMonth: '202611',
	};

	it('first poll: baseline, nothing fires', () => {
		const result = advancePayrollState(
			undefined,
			poll,
			{ '202610': completed(), '202611': notCompleted },
			noOptions,
		);
		expect(result).toEqual({ state: stored, transitions: [] });
	});

	it('first poll with Fire for Months Already Completed When Watching Starts', () => {
		const { transitions, state } = advancePayrollState(
			undefined,
			poll,
			{ '202610': completed(), '202611': notCompleted },
			{ ...noOptions, fireForAlreadyCompleted: true },
		);
		expect(transitions).toEqual([
			{ month: '202610', status: 'completed', executionEndDate: OCT_END, isRerun: false },
		]);
		expect(state.fired).toEqual({ '202610': OCT_END });
	});

	it('a transition fires once', () => {
		const answers = { '202610': completed(), '202611': completed(RERUN_END) };
		const first = advancePayrollState(stored, poll, answers, noOptions);
		expect(first.transitions).toEqual([
			{ month: '202611', status: 'completed', executionEndDate: RERUN_END, isRerun: false },
		]);
		expect(advancePayrollState(first.state, poll, answers, noOptions).transitions).toEqual([]);
	});

	it('a month the calendar brought in is news; one an edit brought in is a baseline', () => {
		const answers = { '202609': completed(), '202611': notCompleted, '202612': completed() };
		const news = advancePayrollState(stored, { ...poll, news: ['202612'] }, answers, noOptions);
		expect(news.transitions.map((transition) => transition.month)).toEqual(['202612']);
	});

	it('a month in the fired memory never fires again as a first completion', () => {
		const remembered = { ...stored, months: {}, fired: { '202610': OCT_END } };
		const { transitions } = advancePayrollState(
			remembered,
			{ ...poll, news: ['202610'] },
			{ '202610': completed() },
			{ ...noOptions, fireForAlreadyCompleted: true },
		);
		expect(transitions).toEqual([]);
	});

	it('re-runs fire unless First Completion Only; isRerun says whether the month fired before', () => {
		const answers = { '202610': completed(RERUN_END), '202611': notCompleted };
		const firstOnly = { ...noOptions, firstCompletionOnly: true };
		expect(advancePayrollState(stored, poll, answers, firstOnly).transitions).toEqual([]);
		// 202610 was a baseline, never fired: its first execution.
		expect(advancePayrollState(stored, poll, answers, noOptions).transitions).toEqual([
			{ month: '202610', status: 'completed', executionEndDate: RERUN_END, isRerun: false },
		]);
		const firedBefore = { ...stored, fired: { '202610': OCT_END } };
		expect(advancePayrollState(firedBefore, poll, answers, noOptions).transitions).toEqual([
			{ month: '202610', status: 'completed', executionEndDate: RERUN_END, isRerun: true },
		]);
		expect(advancePayrollState(firedBefore, poll, answers, firstOnly).transitions).toEqual([]);
	});

	it('a month that fired, reopened and completed with a new end date fires once more', () => {
		// 202610 fired, was reopened (seen not completed), and is completed again.
		const reopened: CompanyPayrollState = {
			...stored,
			months: { '202610': { status: 'not_completed', executionEndDate: OCT_END } },
			fired: { '202610': OCT_END },
		};
		const { transitions, state } = advancePayrollState(
			reopened,
			poll,
			{ '202610': completed(RERUN_END) },
			noOptions,
		);
		expect(transitions).toEqual([
			{ month: '202610', status: 'completed', executionEndDate: RERUN_END, isRerun: true },
		]);
		expect(state.fired).toEqual({ '202610': RERUN_END });
		expect(advancePayrollState(state, poll, { '202610': completed(RERUN_END) }, noOptions)).toEqual(
			{ state, transitions: [] },
		);
	});

	it('a baseline month reopened then completed fires as its first execution', () => {
		const reopened: CompanyPayrollState = {
			...stored,
			months: { '202610': { status: 'not_completed', executionEndDate: OCT_END } },
		};
		const { transitions } = advancePayrollState(
			reopened,
			poll,
			{ '202610': completed(RERUN_END) },
			noOptions,
		);
		expect(transitions).toEqual([
			{ month: '202610', status: 'completed', executionEndDate: RERUN_END, isRerun: false },
		]);
	});

	it('a poll that stopped part-way keeps the unanswered months, pending for the next poll', () => {
		const waiting: CompanyPayrollState = {
			...stored,
			months: {
				'202609': { status: 'not_completed', executionEndDate: null },
				'202611': { status: 'not_completed', executionEndDate: null },
			},
			selection: 'previous',
			lastPolledMonth: '202610',
		};
		const { state, transitions } = advancePayrollState(
			waiting,
			{ ...poll, news: ['202610'], unanswered: ['202609', '202610'] },
			{ '202611': completed(RERUN_END) },
			noOptions,
		);
		expect(transitions.map((transition) => transition.month)).toEqual(['202611']);
		expect(Object.keys(state.months)).toEqual(['202609', '202611']);
		// Asked first next time; 202610 was news (caught up) and stays news.
		expect(state).toMatchObject({ pending: ['202609', '202610'], pendingNews: ['202610'] });
	});

	it('a month that fired keeps its run: a new run of it fires when an edit brings it back', () => {
		const firedThenLeft = { ...stored, months: {}, fired: { '202610': OCT_END } };
		const options = { ...noOptions, fireForAlreadyCompleted: true };
		expect(
			advancePayrollState(firedThenLeft, poll, { '202610': completed() }, options).transitions,
		).toEqual([]);
		expect(
			advancePayrollState(firedThenLeft, poll, { '202610': completed(RERUN_END) }, options)
				.transitions,
		).toEqual([
			{ month: '202610', status: 'completed', executionEndDate: RERUN_END, isRerun: true },
		]);
		const firstOnly = { ...options, firstCompletionOnly: true };
		expect(
			advancePayrollState(firedThenLeft, poll, { '202610': completed(RERUN_END) }, firstOnly)
				.transitions,
		).toEqual([]);
	});

	it('keeps exactly the months that were answered, a bounded fired memory, and the current month as the last polled one', () => {
		const many = {
			...stored,
			fired: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`2024${i}`, OCT_END])),
		};
		const { state } = advancePayrollState(
			many,
			{ ...poll, currentMonth: '202610' },
			{ '202611': notCompleted, '202612': notCompleted },
			noOptions,
		);
		expect(Object.keys(state.months)).toEqual(['202611', '202612']);
		expect(Object.keys(state.fired)).toHaveLength(FIRED_MEMORY);
		// Also when a time zone edit moved it back: the stored selection is read with this month.
		expect(state.lastPolledMonth).toBe('202610');
	});

	it('a stored month more than one month ahead was stored under a clock set ahead: the current month replaces it, and the catch-up works again', () => {
		const answers = { '202611': notCompleted };
		// Written by a poll whose clock said February 2027; this poll's clock says November 2026.
		const ahead = { ...stored, selection: 'current', lastPolledMonth: '202702' };
		const { state } = advancePayrollState(
			ahead,
			{ ...poll, selection: 'current' },
			answers,
			noOptions,
		);
		expect(state.lastPolledMonth).toBe('202611');
		// An outage until January: December is caught up, as news.
		expect(planPoll(state, 'current', ['202701'], '202701').news).toEqual(['202612', '202701']);
	});
});

describe('planPoll', () => {
	const known: CompanyPayrollState = {
		months: { '202611': { status: 'not_completed', executionEndDate: null } },
		fired: {},
		selection: 'current',
		lastPolledMonth: '202611',
	};

	it('first poll: exactly the selection, nothing is news', () => {
		expect(planPoll(undefined, 'current', ['202611'], '202611')).toEqual({
			watched: ['202611'],
			news: [],
			carried: [],
		});
	});

	it('the next month of an unchanged relative selection is news; a waiting month stays watched', () => {
		expect(planPoll(known, 'current', ['202612'], '202612')).toEqual({
			watched: ['202612', '202611'],
			news: ['202612'],
			carried: ['202611'],
		});
	});

	it('an outage over a month boundary catches the passed-over months up, as news', () => {
		const completedKnown = { ...known, months: {}, lastPolledMonth: '202610' };
		expect(planPoll(completedKnown, 'current', ['202612'], '202612')).toEqual({
			watched: ['202612', '202611'],
			news: ['202611', '202612'],
			carried: ['202611'],
		});
		const previousKnown = { ...completedKnown, selection: 'previous' };
		expect(planPoll(previousKnown, 'previous', ['202611'], '202612').watched).toEqual([
			'202611',
			'202610',
		]);
	});

	it('catches up only the window of a relative selection, never the months of Specific Months', () => {
		const specificBefore = {
			...known,
			months: {},
			selection: 'specific',
			lastPolledMonth: '202609',
		};
		expect(planPoll(specificBefore, 'current', ['202612'], '202612')).toEqual({
			watched: ['202612'],
			news: [],
			carried: [],
		});
		// Previous Month at 202610 watched 202609; at 202612 it watches 202611: 202610 was passed over.
		const previousBefore = {
			...known,
			months: {},
			selection: 'previous',
			lastPolledMonth: '202610',
		};
		expect(planPoll(previousBefore, 'current', ['202612'], '202612').news).toEqual([
			'202610',
			'202611',
		]);
	});

	it('an edit keeps waiting months; newly selected months are not news', () => {
		expect(planPoll(known, 'specific', ['202609'], '202611')).toEqual({
			watched: ['202609', '202611'],
			news: [],
			carried: ['202611'],
		});
	});

	it('an edit made while deactivated still catches up what the old selection would have watched, up to today', () => {
		// Both Months at 202610, deactivated, Specific Months 202609 typed, reactivated in 202612.
		const bothBefore = { ...known, months: {}, selection: 'both', lastPolledMonth: '202610' };
		expect(planPoll(bothBefore, 'specific', ['202609'], '202612')).toEqual({
			watched: ['202609', '202611', '202612'],
			news: ['202611', '202612'],
			carried: ['202611', '202612'],
		});
	});

	it('after a first poll that stopped part-way, a month the calendar brings in is news; one never answered is not', () => {
		// First poll in 202610 (Both Months): 202609 answered, 202610 did not.
		const partial = advancePayrollState(
			undefined,
			{ selection: 'both', currentMonth: '202610', news: [], unanswered: ['202610'] },
			{ '202609': notCompleted },
			noOptions,
		).state;
		// A month later.
		expect(planPoll(partial, 'both', ['202610', '202611'], '202611')).toEqual({
			watched: ['202610', '202611', '202609'],
			news: ['202611'],
			carried: ['202609'],
		});
	});

	it('watches at most 12 months back', () => {
		const longAgo = { ...known, lastPolledMonth: '202401' };
		const { watched } = planPoll(longAgo, 'current', ['202612'], '202612');
		expect([...watched].sort()[0]).toBe('202512');
		expect(watched).toHaveLength(13);
	});
});

describe('readPayrollState and withCompanyState', () => {
	it('accepts what was written', () => {
		const { state } = advancePayrollState(undefined, poll, { '202611': notCompleted }, noOptions);
		const written = withCompanyState(undefined, 'FR1001', state);
		expect(readPayrollState(JSON.parse(JSON.stringify(written)))).toEqual(written);
	});

	it.each([
		undefined,
		null,
		'x',
		{},
		{ companies: { FR1001: { months: { '202611': { status: 'done' } } } } },
	])('reads %p as no state', (value) => {
		expect(readPayrollState(value)).toBeUndefined();
	});

	it('keeps at most MAX_COMPANIES companies, the one just polled last', () => {
		let state = withCompanyState(undefined, 'C0', {
			months: {},
			fired: {},
			selection: 'both',
			lastPolledMonth: '202611',
		});
		for (let i = 1; i <= MAX_COMPANIES + 2; i++) {
			state = withCompanyState(state, `C${i}`, state.companies[`C${i - 1}`]);
		}
		const ids = Object.keys(state.companies);
		expect(ids).toHaveLength(MAX_COMPANIES);
		expect(state.recent[state.recent.length - 1]).toBe(`C${MAX_COMPANIES + 2}`);
	});

	it('keeps recency by polling order, also for integer-like company ids', () => {
		let state = withCompanyState(undefined, '900', 'a');
		for (const id of ['10', '2', '900', ...Array.from({ length: 8 }, (_, i) => `X${i}`)]) {
			state = withCompanyState(state, id, id);
		}
		// 10 was polled least recently: it goes, not the numerically smallest key.
		expect(state.recent).toHaveLength(MAX_COMPANIES);
		expect(state.recent).not.toContain('10');
		expect(state.recent.slice(0, 2)).toEqual(['2', '900']);
	});
});

describe('unfinishedMonths, sampleMonth', () => {
	it('unfinishedMonths lists the months not completed', () => {
		expect(
			unfinishedMonths({
				months: {
					'202609': { status: 'not_completed', executionEndDate: OCT_END },
					'202610': { status: 'completed', executionEndDate: OCT_END },
					'202611': { status: 'not_completed', executionEndDate: null },
				},
				fired: {},
				selection: 'both',
				lastPolledMonth: '202611',
			}),
		).toEqual(['202609', '202611']);
		expect(unfinishedMonths(undefined)).toEqual([]);
	});

	it('sampleMonth is the latest completed month, or none', () => {
		expect(
			sampleMonth({ '202609': completed(), '202610': completed(), '202611': notCompleted }),
		).toBe('202610');
		expect(sampleMonth({ '202611': notCompleted, '202612': notCompleted })).toBeUndefined();
		expect(sampleMonth({})).toBeUndefined();
	});
});
