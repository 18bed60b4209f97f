import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Connection } from '../../shared/connection';
import type { PerCompany } from '../helpers/companies';
import type { PollBudget } from '../helpers/pollBudget';

/** What `poll()` needs from an event: its check of the API against the stored state, and a sample. */
export interface EventWatcher {
	/** The event's stored state if it has the expected shape; anything else counts as no state. */
	readState(stored: unknown): PerCompany<object> | undefined;
	/**
	 * Sends the event's requests for one company and works out its next state (`known`: what was
	 * stored for it, undefined for a baseline) and the items to fire. Throws when the company's check
	 * gets nothing it can use; `stopped`: why part of it did not answer (kept for the next poll).
	 */
	check(
		connection: Connection,
		companyId: string,
		known: object | undefined,
		budget: PollBudget,
	): Promise<{ companyState: object; items: INodeExecutionData[]; stopped?: Error }>;
	/** "Fetch Test Event": real data, without reading or writing any state. */
	sample(
		connection: Connection,
		companyId: string,
		budget: PollBudget,
	): Promise<INodeExecutionData[]>;
}

/** What one poll works with: the credential's connection, the event, this trigger's stored state, the poll's time. */
export interface PollInput {
	connection: Connection;
	watcher: EventWatcher;
	event: string;
	/** This trigger's stored state, by key (each event's, and the partner part). */
	stored: IDataObject;
	budget: PollBudget;
}
