import type { INode } from 'n8n-workflow';

import { parameterError } from './errors';

// The service accepts YYYYMM only, with a year starting with 2. Users pick months from
// expressions ($now, a date field), so ISO dates and YYYY-MM are normalised first.
const ACCEPTED_MONTH = /^(2\d{3})-?(0[1-9]|1[0-2])(?:-\d{2}(?:[T ].*)?)?$/;

export interface MonthField {
	/** Parameter name, as in the workflow JSON. */
	name: string;
	displayName: string;
}

function asText(value: unknown): string {
	if (value instanceof Date) return value.toISOString();
	if (
		value &&
		typeof value === 'object' &&
		typeof (value as { toISO?: unknown }).toISO === 'function'
	) {
		return String((value as { toISO: () => string }).toISO());
	}
	return typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
}

/**
 * Returns the month as `YYYYMM`, or throws an error that names the field. An ISO date-time keeps
 * the calendar date as written: `2026-10-31T23:30:00-02:00` is October, whatever UTC says.
 */
const MONTH_NAMES = [
	'January',
	'February',
	'March',
	'April',
	'May',
	'June',
	'July',
	'August',
	'September',
	'October',
	'November',
	'December',
];

// What people (and language models) write for a month: "October 2026", "Oct 2026", "oct. 2026".
const NAMED_MONTH = /^([a-z]+)\.?\s+(2\d{3})$/i;

function fromMonthName(text: string): string | undefined {
	const match = NAMED_MONTH.exec(text);
	if (!match) return undefined;
	const name = match[1].toLowerCase();
	const index = MONTH_NAMES.findIndex((full) => {
		const month = full.toLowerCase();
		return month === name || (name.length >= 3 && month.startsWith(name));
	});
	return index < 0 ? undefined : `${match[2]}${String(index + 1).padStart(2, '0')}`;
}

export function normalizeMonth(
	value: unknown,
	field: MonthField,
	node: INode,
	itemIndex?: number,
): string {
	const text = asText(value);
	const match = ACCEPTED_MONTH.exec(text);
	const named = match ? undefined : fromMonthName(text);
	if (!match && !named) {
		throw parameterError(
			node,
			`${field.displayName} must be a month as YYYYMM, for example 202610 (got "${text || String(value ?? '')}")`,
			{
				itemIndex,
				description: `The parameter "${field.name}" accepts YYYYMM, YYYY-MM, an ISO date, or a month name with its year (October 2026, Oct 2026); the year must start with 2 and the month be 01 to 12.`,
			},
		);
	}
	return named ?? `${match![1]}${match![2]}`;
}

/** `202610` → `October 2026`, for readable output. */
export function readableMonth(month: string): string {
	return `${MONTH_NAMES[Number(month.slice(4, 6)) - 1]} ${month.slice(0, 4)}`;
}
