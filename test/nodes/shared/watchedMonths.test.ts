import { Settings } from 'luxon';
import type { INode } from 'n8n-workflow';

import {
	addMonths,
	currentMonthIn,
	parseSpecificMonths,
	selectedMonths,
} from '../../../nodes/shared/watchedMonths';

const node = { name: 'Partner Payroll Trigger' } as INode;

const realNow = Settings.now;
const setClock = (iso: string) => {
	Settings.now = () => Date.parse(iso);
};
afterEach(() => {
	Settings.now = realNow;
});

describe('addMonths', () => {
	it.each([
		['202611', 1, '202612'],
		['202612', 1, '202701'],
		['202601', -1, '202512'],
		['202611', -12, '202511'],
		['202611', -23, '202412'],
		['202611', 0, '202611'],
	])('%s %+d → %s', (month, delta, expected) => {
		expect(addMonths(month, delta)).toBe(expected);
	});
});

describe('currentMonthIn', () => {
	it.each([
		// The same instant is in three different months depending on the zone.
		['2026-11-30T23:30:00.000Z', 'UTC', '202611'],
		['2026-11-30T23:30:00.000Z', 'Pacific/Auckland', '202612'],
		['2026-12-01T07:00:00.000Z', 'America/Los_Angeles', '202611'],
		['2026-12-01T07:00:00.000Z', 'UTC', '202612'],
		['2026-12-31T23:30:00.000Z', 'Europe/Paris', '202701'],
	])('%s in %s is %s', (instant, zone, expected) => {
		setClock(instant);
		expect(currentMonthIn(zone)).toBe(expected);
	});

	it('is undefined for an unknown zone', () => {
		expect(currentMonthIn('Mars/Olympus_Mons')).toBeUndefined();
	});
});

describe('selectedMonths', () => {
	it.each([
		['current', ['202701']],
		['previous', ['202612']],
		['both', ['202612', '202701']],
	] as const)('%s', (selection, expected) => {
		expect(selectedMonths(selection, '202701')).toEqual(expected);
	});

	it('specific: sorted, without duplicates, whatever the current month', () => {
		expect(selectedMonths('specific', '202701', ['202612', '202507', '202612'])).toEqual([
			'202507',
			'202612',
		]);
	});
});

describe('parseSpecificMonths', () => {
	it.each([
		['202611', ['202611']],
		['202612, 202611', ['202611', '202612']],
		['2026-11;2026-12 202611', ['202611', '202612']],
		[
			['202611', 202612],
			['202611', '202612'],
		],
	])('reads %p', (value, expected) => {
		expect(parseSpecificMonths(value, node)).toEqual(expected);
	});

	it('names the field and the bad value', () => {
		expect(() => parseSpecificMonths('202611, 2026-13', node)).toThrow(
			'Specific Months must be a month as YYYYMM, for example 202610 (got "2026-13")',
		);
	});

	it.each(['', ' ,, ', []])('refuses %p as empty', (value) => {
		expect(() => parseSpecificMonths(value, node)).toThrow(
			'Specific Months needs at least one month',
		);
	});
});
