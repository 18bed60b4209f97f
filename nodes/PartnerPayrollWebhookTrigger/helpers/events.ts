import { jsonParse, type INode } from 'n8n-workflow';

import { hasControlCharacter } from '../../shared/ids';
import { serviceInstant } from '../../shared/instants';
import { normalizeMonth } from '../../shared/month';
import { isObject } from '../../shared/bodies';

// The deliveries' bodies, as the service sends them (real-service facts; the spec shows none):
// {"type": "payroll.run", "data": {companyId, effectiveDate, payrollMonth: "YYYYMM"}} and
// {"type": "integration.activated" | "integration.deactivated", "data": {companyId, effectiveDate}}.

export const EVENT_TYPES = [
	'payroll.run',
	'integration.activated',
	'integration.deactivated',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface ServiceEvent {
	event: EventType;
	companyId: string;
	/** YYYYMM, for payroll.run only. */
	month?: string;
	/** ISO UTC with milliseconds: one spelling per instant, so it can be compared and keyed. */
	effectiveDate: string;
	/** As sent, for example `2023-01-30T13:02:33+00:00`. */
	effectiveDateRaw: string;
}

/** `event` for a known type; `unknownType` for another type (a newer event: not ours to refuse); `problem` for a body that can never be read. */
export type ReadEvent = { event: ServiceEvent } | { unknownType: string } | { problem: string };

/** A date-time as ISO UTC with milliseconds (without an offset: UTC); undefined otherwise. */
export const utcInstant = (text: string): string | undefined =>
	serviceInstant(text)?.toISO() ?? undefined;

function payrollMonth(value: unknown, node: INode): string | undefined {
	if (typeof value !== 'string' || !/^\d{6}$/.test(value)) return undefined;
	try {
		return normalizeMonth(value, { name: 'payrollMonth', displayName: 'payrollMonth' }, node);
	} catch {
		// The shared month rule refuses it (month 13, a year not starting with 2): not a month.
		return undefined;
	}
}

/** Reads a verified delivery's raw body. */
export function readEvent(body: Buffer, node: INode): ReadEvent {
	const parsed = jsonParse<unknown>(body.toString('utf8'), { fallbackValue: null });
	if (!isObject(parsed)) return { problem: 'the body is not a JSON object' };
	const type = parsed.type;
	if (typeof type !== 'string' || !type) return { problem: 'the body has no "type"' };
	if (!(EVENT_TYPES as readonly string[]).includes(type)) return { unknownType: type };
	const data = parsed.data;
	if (!isObject(data)) return { problem: `the ${type} event has no "data" object` };

	const companyId = typeof data.companyId === 'string' ? data.companyId.trim() : '';
	if (!companyId || hasControlCharacter(companyId)) {
		return { problem: `the ${type} event has no usable "data.companyId"` };
	}
	const effectiveDateRaw = typeof data.effectiveDate === 'string' ? data.effectiveDate : '';
	const effectiveDate = utcInstant(effectiveDateRaw);
	if (!effectiveDate) {
		return {
			problem: `the ${type} event's "data.effectiveDate" is not an ISO 8601 date-time`,
		};
	}
	const event: ServiceEvent = {
		event: type as EventType,
		companyId,
		effectiveDate,
		effectiveDateRaw,
	};
	if (type === 'payroll.run') {
		const month = payrollMonth(data.payrollMonth, node);
		if (!month) return { problem: 'the payroll.run event\'s "data.payrollMonth" is not YYYYMM' };
		event.month = month;
	}
	return { event };
}
