import {
	REMOVED_RETENTION_MS,
	pollOrder,
	readPartnerState,
	removedCompanies,
} from '../../../../nodes/PartnerPayrollTrigger/helpers/partnerState';

const NOW = Date.parse('2026-11-15T12:00:00.000Z');

describe('partner state: the order of a poll', () => {
	it('the companies the last poll did not reach come first, so none starves', () => {
		expect(pollOrder(['A', 'B', 'C', 'D', 'E'], ['D', 'E'])).toEqual(['D', 'E', 'A', 'B', 'C']);
	});

	it('a company not reached that is no longer watched is left out', () => {
		expect(pollOrder(['A', 'B'], ['Z', 'B'])).toEqual(['B', 'A']);
	});
});

describe('partner state: removed companies', () => {
	const empty = readPartnerState(undefined);

	it('a company no longer watched gets its removal date, and is kept within the retention', () => {
		const first = removedCompanies(empty, ['A', 'B'], ['A'], NOW);
		expect(first).toEqual({ removedSince: { B: new Date(NOW).toISOString() }, forget: new Set() });
		const later = removedCompanies(
			{ ...empty, removedSince: first.removedSince },
			['A', 'B'],
			['A'],
			NOW + REMOVED_RETENTION_MS,
		);
		expect(later.forget).toEqual(new Set());
	});

	it('past the retention it is forgotten; watched again before, it loses its removal date', () => {
		const removedSince = { B: new Date(NOW).toISOString() };
		expect(
			removedCompanies(
				{ ...empty, removedSince },
				['A', 'B'],
				['A'],
				NOW + REMOVED_RETENTION_MS + 1,
			).forget,
		).toEqual(new Set(['B']));
		expect(removedCompanies({ ...empty, removedSince }, ['A', 'B'], ['A', 'B'], NOW + 1)).toEqual({
			removedSince: {},
			forget: new Set(),
		});
	});

	it('a stored state of another shape counts as none', () => {
		expect(readPartnerState({ lost: { A: 1 } })).toEqual(empty);
		expect(readPartnerState('text')).toEqual(empty);
	});
});
