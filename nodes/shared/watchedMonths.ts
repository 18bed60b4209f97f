import { DateTime } from 'luxon';
import type { INode } from 'n8n-workflow';

import { parameterError } from './errors';
import { normalizeMonth, type MonthField } from './month';

// The months a Partner Payroll Trigger watches (also what the Connect trigger checks for a new company).
// Months are `YYYYMM` strings everywhere: they compare and sort as plain text.

export type MonthSelection = 'both' | 'current' | 'previous' | 'specific';

/**
 * A month that left the watched window unfinished stays watched this many months back from the
 * current month, then is dropped: a payroll closed a year late is not worth a request every poll.
 */
export const MAX_CARRY_OVER_MONTHS = 12;

const SPECIFIC_MONTHS: MonthField = { name: 'specificMonths', displayName: 'Specific Months' };

export function addMonths(month: string, delta: number): string {
	const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(4, 6)) - 1 + delta;
	const year = Math.floor(index / 12);
	return `${year}${String(index - year * 12 + 1).padStart(2, '0')}`;
}

/**
 * The calendar month of "now" in the given IANA zone, or undefined for an unknown zone.
 * Luxon's clock (`Settings.now`) is used so the month can be moved in tests.
 */
export function currentMonthIn(timeZone: string): string | undefined {
	const now = DateTime.now().setZone(timeZone);
	return now.isValid ? now.toFormat('yyyyMM') : undefined;
}

/** The months the user asked for, oldest first. */
export function selectedMonths(
	selection: MonthSelection,
	currentMonth: string,
	specificMonths: string[] = [],
): string[] {
	switch (selection) {
		case 'current':
			return [currentMonth];
		case 'previous':
			return [addMonths(currentMonth, -1)];
		case 'specific':
			return [...new Set(specificMonths)].sort();
		default:
			return [addMonths(currentMonth, -1), currentMonth];
	}
}

/** Reads "202611, 202612" (or an expression's array); every month passes the node's month rule. */
export function parseSpecificMonths(value: unknown, node: INode): string[] {
	const parts = Array.isArray(value) ? value : String(value ?? '').split(/[\s,;]+/);
	const months = parts
		.filter((part) => String(part ?? '').trim() !== '')
		.map((part) => normalizeMonth(part, SPECIFIC_MONTHS, node));
	if (!months.length) {
		throw parameterError(node, 'Specific Months needs at least one month', {
			description:
				'Type one or more months as YYYYMM, separated by commas, for example 202611, 202612.',
		});
	}
	return [...new Set(months)].sort();
}
