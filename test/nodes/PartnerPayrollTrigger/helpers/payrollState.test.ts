import {
	advancePayrollState,
	observeMonth,
	readPayrollState,
	sampleMonth,
	unfinishedMonths,
	watchKey,
	type PayrollState,
} from '../../../../nodes/PartnerPayrollTrigger/helpers/payrollState';

const OCT_END = '2026-10-28T17:42:05.000Z';
const RERUN_END = '2026-11-02T09:00:00.000Z';
const completed = (executionEndDate: string | null = OCT_END) => ({
	status: 'completed',
	executionEndDate,
});
const notCompleted = { status: 'not_completed', executionEndDate: null };
const noOptions = { fireForAlreadyCompleted: false, fireOnRerun: false };
const current = { companyId: 'FR1001', watch: 'both@Europe/Paris' };

describe('observeMonth', () => {
	it.each([
		['unknown → not completed', undefined, notCompleted, undefined],
		['unknown → completed', undefined, completed(), 'completed'],
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
			'rerun',
		],
		[
			'reopened → same run again',
			{ status: 'not_completed', executionEndDate: OCT_END },
			completed(),
			'reopened',
		],
		[
			'reopened → new run',
			{ status: 'not_completed', executionEndDate: OCT_END },
			completed(RERUN_END),
			'reopened',
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
			change: 'completed',
		});
		expect(observeMonth(first.state, completed(null)).change).toBeUndefined();
	});
});

describe('advancePayrollState', () => {
	const stored: PayrollState = {
		...current,
		months: {
			'202610': { status: 'completed', executionEndDate: OCT_END },
			'202611': { status: 'not_completed', executionEndDate: null },
		},
	};

	it('first poll: baseline, nothing fires', () => {
		const result = advancePayrollState(
			undefined,
			current,
			{ '202610': completed(), '202611': notCompleted },
			noOptions,
		);
		expect(result).toEqual({ state: stored, transitions: [] });
	});

	it('first poll with Fire for Already Completed Months', () => {
		const { transitions } = advancePayrollState(
			undefined,
			current,
			{ '202610': completed(), '202611': notCompleted },
			{ ...noOptions, fireForAlreadyCompleted: true },
		);
		expect(transitions).toEqual([
			{ month: '202610', status: 'completed', executionEndDate: OCT_END, isRerun: false },
		]);
	});

	it('another company: baseline again', () => {
		const { transitions, state } = advancePayrollState(
			stored,
			{ ...current, companyId: 'FR1002' },
			{ '202611': completed() },
			noOptions,
		);
		expect(transitions).toEqual([]);
		expect(state.companyId).toBe('FR1002');
	});

	it('a transition fires once', () => {
		const first = advancePayrollState(
			stored,
			current,
			{ '202610': completed(), '202611': completed(RERUN_END) },
			noOptions,
		);
		expect(first.transitions).toEqual([
			{ month: '202611', status: 'completed', executionEndDate: RERUN_END, isRerun: false },
		]);
		const second = advancePayrollState(
			first.state,
			current,
			{ '202610': completed(), '202611': completed(RERUN_END) },
			noOptions,
		);
		expect(second.transitions).toEqual([]);
	});

	it('a month the calendar brought into the same selection is news when completed', () => {
		const { transitions } = advancePayrollState(
			stored,
			current,
			{ '202611': notCompleted, '202612': completed() },
			noOptions,
		);
		expect(transitions.map((transition) => transition.month)).toEqual(['202612']);
	});

	it('a month the user newly selected is a baseline', () => {
		const { transitions } = advancePayrollState(
			stored,
			{ ...current, watch: 'specific:202609,202611' },
			{ '202609': completed(), '202611': completed(RERUN_END) },
			noOptions,
		);
		expect(transitions.map((transition) => transition.month)).toEqual(['202611']);
	});

	it('re-runs fire only with the option, marked', () => {
		const answers = { '202610': completed(RERUN_END), '202611': notCompleted };
		expect(advancePayrollState(stored, current, answers, noOptions).transitions).toEqual([]);
		expect(
			advancePayrollState(stored, current, answers, { ...noOptions, fireOnRerun: true })
				.transitions,
		).toEqual([
			{ month: '202610', status: 'completed', executionEndDate: RERUN_END, isRerun: true },
		]);
	});

	it('keeps exactly the months that were answered (bounded state)', () => {
		const { state } = advancePayrollState(
			stored,
			current,
			{ '202611': notCompleted, '202612': notCompleted },
			noOptions,
		);
		expect(Object.keys(state.months)).toEqual(['202611', '202612']);
	});
});

describe('readPayrollState', () => {
	it('accepts what advancePayrollState wrote', () => {
		const { state } = advancePayrollState(
			undefined,
			current,
			{ '202611': notCompleted },
			noOptions,
		);
		expect(readPayrollState(JSON.parse(JSON.stringify(state)))).toEqual(state);
	});

	it.each([
		undefined,
		null,
		'x',
		{},
		{ companyId: 'FR1001', watch: 'both@UTC' },
		{ ...current, months: { '202611': { status: 'done' } } },
	])('reads %p as no state', (value) => {
		expect(readPayrollState(value)).toBeUndefined();
	});
});

describe('unfinishedMonths, sampleMonth, watchKey', () => {
	it('unfinishedMonths lists the months not completed', () => {
		expect(
			unfinishedMonths({
				...current,
				months: {
					'202609': { status: 'not_completed', executionEndDate: OCT_END },
					'202610': { status: 'completed', executionEndDate: OCT_END },
					'202611': { status: 'not_completed', executionEndDate: null },
				},
			}),
		).toEqual(['202609', '202611']);
		expect(unfinishedMonths(undefined)).toEqual([]);
	});

	it('sampleMonth prefers the latest completed month, else the latest month', () => {
		expect(
			sampleMonth({ '202609': completed(), '202610': completed(), '202611': notCompleted }),
		).toBe('202610');
		expect(sampleMonth({ '202611': notCompleted, '202612': notCompleted })).toBe('202612');
		expect(sampleMonth({})).toBeUndefined();
	});

	it('watchKey: the rule and zone for relative selections, the months for specific ones', () => {
		expect(watchKey('both', 'Pacific/Auckland', [])).toBe('both@Pacific/Auckland');
		expect(watchKey('specific', 'Pacific/Auckland', ['202611', '202612'])).toBe(
			'specific:202611,202612',
		);
	});
});
