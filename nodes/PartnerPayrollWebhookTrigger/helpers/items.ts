import type { INodeExecutionData } from 'n8n-workflow';

import { integrationDedupeKey, payrollDedupeKey } from '../../shared/dedupeKeys';
import { readableMonth } from '../../shared/month';
import type { ServiceEvent } from './events';

// dedupeKey: one key per event, the polling trigger's shapes (nodes/shared/dedupeKeys.ts), so n8n's
// Remove Duplicates can merge both sources on it.

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

export function webhookItem(
	event: ServiceEvent,
	delivery: { messageId: string; isRerun: boolean },
): INodeExecutionData {
	const month =
		event.month === undefined ? {} : { month: event.month, monthName: readableMonth(event.month) };
	return {
		json: {
			event: event.event,
			companyId: event.companyId,
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
