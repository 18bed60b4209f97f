import type { INodeExecutionData } from 'n8n-workflow';

import type { Connection } from '../../shared/connection';
import type { PollBudget } from '../helpers/pollBudget';

/** What `poll()` needs from an event: its check of the API against the stored state, and a sample. */
export interface EventWatcher {
	/**
	 * Sends the event's requests and works out the next state and the items to fire. Throws when the
	 * poll gets nothing it can use; `stopped`: why part of it did not answer (kept for the next poll).
	 */
	check(
		connection: Connection,
		companyId: string,
		stored: unknown,
		budget: PollBudget,
	): Promise<{ state: object; items: INodeExecutionData[]; stopped?: Error }>;
	/** "Fetch Test Event": real data, without reading or writing any state. */
	sample(
		connection: Connection,
		companyId: string,
		budget: PollBudget,
	): Promise<INodeExecutionData[]>;
}
