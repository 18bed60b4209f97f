import type { INode } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { normalizeMonth, readableMonth } from '../../../nodes/shared/month';

const node = { name: 'Partner Payroll' } as INode;
const field = { name: 'month', displayName: 'Month' };

describe('normalizeMonth', () => {
	it.each([
		['202610', '202610'],
		['2026-10', '202610'],
		['2026-10-31', '202610'],
		['2026-10-31T23:30:00-02:00', '202610'],
		['2026-01-01T00:00:00.000Z', '202601'],
		[' 202612 ', '202612'],
		[202605, '202605'],
		// What people and language models write: a month name with its year.
		['October 2026', '202610'],
		['Oct 2026', '202610'],
		['oct. 2026', '202610'],
		['SEPT 2026', '202609'],
		['may 2027', '202705'],
	])('reads %p as %p', (input, expected) => {
		expect(normalizeMonth(input, field, node)).toBe(expected);
	});

	it('keeps the calendar month of a luxon DateTime in its own zone', () => {
		const lateOnNewYearsEve = DateTime.fromISO('2026-12-31T23:30:00', { zone: 'America/New_York' });
		expect(normalizeMonth(lateOnNewYearsEve, field, node)).toBe('202612');
	});

	it.each([
		'',
		'2026',
		'202613',
		'202600',
		'102610',
		'3026-10',
		'26-10',
		'Octember 2026',
		'Oc 2026',
		'October 1926',
		'October',
		'2026/10',
		'2026100',
		// Review finding 5: a day that cannot exist or trailing text is a typo, not a month.
		'202610-15',
		'2026-10-99',
		'2026-10-00',
		'2026-10-31Tgarbage',
		'2026-10-31T24:00',
		'2026-10-31 garbage',
	])('refuses %p, naming the field and the expected format', (input) => {
		expect(() => normalizeMonth(input, field, node)).toThrow(/^Month must be a month as YYYYMM/);
	});

	it('names the parameter in the error description', () => {
		expect.assertions(1);
		try {
			normalizeMonth(
				'nope',
				{ name: 'monthOfApplication', displayName: 'Month of Application' },
				node,
			);
		} catch (error) {
			expect((error as { description: string }).description).toContain('"monthOfApplication"');
		}
	});
});

describe('a JS Date object is read in the time zone of the workflow (review finding 5)', () => {
	// 2026-10-31T23:30 in São Paulo (UTC-3) is 2026-11-01T02:30 in UTC.
	const lateOnOctober31 = new Date('2026-10-31T23:30:00-03:00');

	it('keeps the month of the workflow time zone', () => {
		expect(normalizeMonth(lateOnOctober31, field, node, 0, 'America/Sao_Paulo')).toBe('202610');
	});

	it('without a time zone, reads it in UTC', () => {
		expect(normalizeMonth(lateOnOctober31, field, node)).toBe('202611');
	});
});

describe('readableMonth', () => {
	it('spells the month out', () => {
		expect(readableMonth('202610')).toBe('October 2026');
		expect(readableMonth('202601')).toBe('January 2026');
	});
});
