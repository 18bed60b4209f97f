import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { integrationDedupeKey, payrollDedupeKey } from '../../shared/dedupeKeys';
import { readableMonth } from '../../shared/month';
import type { ServiceEvent } from './events';

// dedupeKey: one key per event, the polling trigger's shapes (nodes/shared/dedupeKeys.ts), so both
// triggers of a workflow claim a run under the same key (nodes/shared/runClaims.ts).

/** The key of a month's first completion: also what the record keeps a month's dates under. */
export const monthKey = (companyId: string, month: string) =>
	payrollDedupeKey(companyId, month, null);

export function dedupeKey(event: ServiceEvent, isRerun: boolean): string {
	if (event.month === undefined) {
		const change = event.event.replace(/^integration\./, '');
		return integrationDedupeKey(event.companyId, change, event.effectiveDate);
	}
	return payrollDedupeKey(event.companyId, event.month, isRerun ? event.effectiveDate : null);
}

/** The event's item; `label` only with a Partner API credential linked (items without it stay as they were). */
export function webhookItem(
	event: ServiceEvent,
	delivery: { messageId: string; isRerun: boolean },
	label?: string,
): INodeExecutionData {
	const month =
		event.month === undefined ? {} : { month: event.month, monthName: readableMonth(event.month) };
	return {
		json: {
			event: event.event,
			companyId: event.companyId,
			...(label === undefined ? {} : { label }),
			...month,
			effectiveDate: event.effectiveDate,
			effectiveDateRaw: event.effectiveDateRaw,
			isRerun: delivery.isRerun,
			dedupeKey: dedupeKey(event, delivery.isRerun),
			messageId: delivery.messageId,
			source: 'webhook',
		},
	};
}

/** A connection change (nodes/shared/connectionHealth.ts) with the date, key and message of the event that made it. */
export function connectionItem(
	change: IDataObject,
	event: ServiceEvent,
	messageId: string,
): INodeExecutionData {
	return {
		json: {
			...change,
			effectiveDate: event.effectiveDate,
			dedupeKey: dedupeKey(event, false),
			messageId,
			source: 'webhook',
		},
	};
}
