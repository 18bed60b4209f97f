import { DateTime, Info } from 'luxon';
import type { IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

import { parameterError } from './errors';

// The service accepts YYYYMM only, with a year starting with 2. Users pick months from
// expressions ($now, a date field), so ISO dates and YYYY-MM are normalised first. Only what
// MONTH_HELP states is accepted: a day that cannot exist or trailing text is a typo, not a month.
const TIME =
	'(?:[T ](?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,9})?)?(?:Z|[+-](?:[01]\\d|2[0-3]):?[0-5]\\d)?)?';
const ACCEPTED_MONTH = new RegExp(
	`^(2\\d{3})(?:(0[1-9]|1[0-2])|-(0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\\d|3[01])${TIME})?)$`,
);

/** What a Month field accepts, word for word the same in its tooltip and in its error (and the README). */
export const MONTH_HELP =
	'A month as YYYYMM (202610). Also accepted: YYYY-MM (2026-10); an ISO date or date-time (2026-10-31, 2026-10-31T23:30:00+01:00), whose calendar month is kept as written whatever the offset; a month name with its year (October 2026, Oct 2026); a date from an expression such as {{ $now }}, read in the time zone of the workflow. The year starts with 2.';

/** A Month field's parameter name (as in the workflow JSON) and the name the user reads. */
export type MonthField = Pick<INodeProperties, 'name' | 'displayName'>;

function asText(value: unknown, timeZone: string): string {
	// A Date object is an instant without a zone: its month is the workflow's, like $now's.
	if (value instanceof Date) return DateTime.fromJSDate(value, { zone: timeZone }).toISO() ?? '';
	// Luxon's DateTime (n8n's $now), from n8n's copy of luxon too.
	if (DateTime.isDateTime(value)) return String(value.toISO());
	return typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
}

const MONTH_NAMES = Info.months('long', { locale: 'en' });

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

/**
 * Returns the month as `YYYYMM`, or throws an error that names the field. An ISO date-time keeps
 * the calendar date as written: `2026-10-31T23:30:00-02:00` is October, whatever UTC says.
 */
export function normalizeMonth(
	value: unknown,
	field: MonthField,
	node: INode,
	itemIndex?: number,
	timeZone = 'UTC',
): string {
	const text = asText(value, timeZone);
	const match = ACCEPTED_MONTH.exec(text);
	const named = match ? undefined : fromMonthName(text);
	if (!match && !named) {
		throw parameterError(
			node,
			`${field.displayName} must be a month as YYYYMM, for example 202610 (got "${text || String(value ?? '')}")`,
			{ itemIndex, description: `${MONTH_HELP} (parameter "${field.name}")` },
		);
	}
	return named ?? `${match![1]}${match![2] ?? match![3]}`;
}

/** `202610` → `October 2026`, for readable output. */
export function readableMonth(month: string): string {
	return `${MONTH_NAMES[Number(month.slice(4, 6)) - 1]} ${month.slice(0, 4)}`;
}

/** A month field of the node: what the month is for, then what the field accepts. */
export function monthFieldOf(field: MonthField, meaning: string): INodeProperties {
	return {
		...field,
		type: 'string',
		required: true,
		default: '',
		placeholder: '202610',
		description: `${meaning} ${MONTH_HELP}`,
	};
}

export const monthField = monthFieldOf({ displayName: 'Month', name: 'month' }, 'Payroll month.');

/** The item's month field as YYYYMM, or an error that names the field. */
export const monthOf = (
	context: IExecuteFunctions,
	itemIndex: number,
	field: MonthField = monthField,
) =>
	normalizeMonth(
		context.getNodeParameter(field.name, itemIndex, ''),
		field,
		context.getNode(),
		itemIndex,
		context.getTimezone(),
	);
