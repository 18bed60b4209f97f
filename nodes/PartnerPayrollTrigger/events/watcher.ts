import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { Connection } from '../../shared/connection';
import type { PerCompany } from '../helpers/companies';
import type { PollBudget } from '../helpers/pollBudget';

/** One company in one poll: what every request of an event's check or sample needs. */
export interface CompanyInPoll {
	context: IPollFunctions;
	connection: Connection;
	companyId: string;
	budget: PollBudget;
}

/**
 * One company's check: its next state, the items to fire, and `stopped`: why part of it did not
 * answer (kept for the next poll).
 */
export interface CompanyCheck {
	companyState: object;
	items: INodeExecutionData[];
	stopped?: Error;
}

/**
 * What `poll()` needs from an event: its check of the API against the stored state, and a sample.
 * The event's parameters are read and checked when the watcher is made, before any request.
 */
export interface EventWatcher {
	/** The event's stored state if it has the expected shape; anything else counts as no state. */
	readState(stored: unknown): PerCompany<object> | undefined;
	/** What a first poll for a company records, in the log's words. */
	baseline: string;
	/**
	 * Sends the event's requests for one company and works out its next state (`known`: what was
	 * stored for it, undefined for a baseline) and the items to fire. Throws when the company's check
	 * gets nothing it can use.
	 */
	check(company: CompanyInPoll, known: object | undefined): Promise<CompanyCheck>;
	/** "Fetch Test Event": real data, without reading or writing any state. */
	sample(company: CompanyInPoll): Promise<INodeExecutionData[]>;
}

/**
 * An event as its module defines it: plain functions, and the parameters they share, read once per
 * poll by `watcherOf`.
 */
export interface EventDefinition<Settings, CompanyState extends object> {
	/** Reads and checks the event's parameters, before any request. */
	readSettings(context: IPollFunctions): Settings;
	readState(stored: unknown): PerCompany<CompanyState> | undefined;
	baseline: string;
	check(
		company: CompanyInPoll,
		settings: Settings,
		known: CompanyState | undefined,
	): Promise<CompanyCheck>;
	sample(company: CompanyInPoll, settings: Settings): Promise<INodeExecutionData[]>;
}

/** The event's watcher for one poll: its parameters are read and checked here, before any request. */
export function watcherOf<Settings, CompanyState extends object>(
	event: EventDefinition<Settings, CompanyState>,
	context: IPollFunctions,
): EventWatcher {
	const settings = event.readSettings(context);
	return {
		readState: event.readState,
		baseline: event.baseline,
		check: async (company, known) =>
			await event.check(company, settings, known as CompanyState | undefined),
		sample: async (company) => await event.sample(company, settings),
	};
}

/** The event's check of one company; the first poll for a company (nothing known) says so in the log. */
export async function checkCompany(
	watcher: EventWatcher,
	company: CompanyInPoll,
	known: object | undefined,
): Promise<CompanyCheck> {
	if (!known) {
		company.context.logger.debug(
			`Partner Payroll Trigger: first poll for company ${company.companyId}, recording ${watcher.baseline}`,
		);
	}
	return await watcher.check(company, known);
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
