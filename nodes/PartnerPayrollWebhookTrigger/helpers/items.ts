import type { INodeExecutionData } from 'n8n-workflow';

import { readableMonth } from '../../shared/month';
import type { ServiceEvent } from './events';

// dedupeKey: one key per event, in the shapes the polling trigger emits too, so n8n's Remove
// Duplicates can merge both sources on it. A month's first completion: payroll:<company>:<YYYYMM>.
// A re-run (Fire Again on Re-Run): the same with the new date appended. Integration events: one key
// per change, integration:<company>:<activated|deactivated>:<effectiveDate>.

/** The key of a month's first completion: also what the record keeps a month's dates under. */
export function monthKey(companyId: string, month: string): string {
	return `payroll:${companyId}:${month}`;
}

export function dedupeKey(event: ServiceEvent, isRerun: boolean): string {
	if (event.month === undefined) {
		const change = event.event.replace(/^integration\./, '');
		return `integration:${event.companyId}:${change}:${event.effectiveDate}`;
	}
	const key = monthKey(event.companyId, event.month);
	return isRerun ? `${key}:${event.effectiveDate}` : key;
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
