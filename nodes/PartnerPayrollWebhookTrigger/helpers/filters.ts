import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { parameterError } from '../../shared/errors';
import { checkedId } from '../../shared/ids';
import { normalizeMonth } from '../../shared/month';
import type { EventType, ServiceEvent } from './events';

/** Which events start the workflow, from the node's parameters (checked before anything else). */
export interface EventFilter {
	events: EventType[];
	/** Undefined: every company of the endpoint. */
	companyIds?: Set<string>;
	/** YYYYMM; payroll.run events of earlier months are acknowledged without an execution. */
	ignoreMonthsBefore?: string;
}

export function readEventFilter(context: IWebhookFunctions | IHookFunctions): EventFilter {
	const node = context.getNode();
	const events = context.getNodeParameter('events', ['payroll.run']) as EventType[];
	if (!events.length) {
		throw parameterError(node, 'Events must name at least one event', {
			description: 'Choose Payroll Run, Integration Activated or Integration Deactivated.',
		});
	}
	const filter: EventFilter = { events };
	if (context.getNodeParameter('companies', 'all') === 'selected') {
		const ids = String(context.getNodeParameter('companyIds', '') ?? '')
			.split(/[,\s]+/)
			.filter(Boolean)
			.map((id) => checkedId(id, 'Company IDs', node));
		if (!ids.length) {
			throw parameterError(node, 'Company IDs must list at least one company id', {
				description: 'Type the ids separated by commas, or choose Companies: All.',
			});
		}
		filter.companyIds = new Set(ids);
	}
	const ignoreBefore = String(context.getNodeParameter('options.ignoreMonthsBefore', '') ?? '');
	if (ignoreBefore.trim()) {
		filter.ignoreMonthsBefore = normalizeMonth(
			ignoreBefore,
			{ name: 'ignoreMonthsBefore', displayName: 'Ignore Months Before' },
			node,
		);
	}
	return filter;
}

/** Why the event starts nothing, or undefined when it passes. */
export function filteredOut(event: ServiceEvent, filter: EventFilter): string | undefined {
	if (!filter.events.includes(event.event)) return `event ${event.event} is not selected`;
	if (filter.companyIds && !filter.companyIds.has(event.companyId)) {
		return `company ${event.companyId} is not selected`;
	}
	if (event.month && filter.ignoreMonthsBefore && event.month < filter.ignoreMonthsBefore) {
		return `month ${event.month} is before ${filter.ignoreMonthsBefore} (Ignore Months Before)`;
	}
	return undefined;
}
