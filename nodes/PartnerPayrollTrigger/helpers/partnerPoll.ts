import { NodeOperationError, type INodeExecutionData, type IPollFunctions } from 'n8n-workflow';

import { CompanyListError, companyName } from '../../../credentials/partnerCompanies';
import { PartnerPayrollApiError } from '../../shared/apiError';
import {
	connectionChange,
	type CompanyIdentity,
	type ConnectionObservation,
} from '../../shared/connectionHealth';
import { asNodeError } from '../../shared/errors';
import { inPool } from '../../shared/pool';
import { checkCompany, type PollInput } from '../events/watcher';
import { withCompanyStates, type PerCompany } from './companies';
import type { CompanyFailure } from './failedCompanies';
import type { PollBudget } from './pollBudget';
import { withLabel } from './pollItems';
import {
	pollOrder,
	readPartnerState,
	removedCompanies,
	without,
	type PartnerState,
} from './partnerState';
import { fetchCompanyCountry } from './requests';
import type { WatchedCompany } from './watchedCompanies';

// One poll over the companies of the Partner API credential: each company is checked as a trigger
// with its own credential would check it, several at once under the shared pace, and one company's
// failure (a revoked token, a broken row, a failing service) never stops the others.

/**
 * Companies checked at once. The service's rate limit sets the pace (the shared pacer); this only
 * keeps enough requests in flight to reach it, as the node's items in flight do.
 */
export const COMPANIES_IN_FLIGHT = 16;

/** The country whose companies have the New Document listings. */
const DOCUMENT_COUNTRY = 'GB';

/** Why a company's connection is lost, when its check failed because of its token or its row. */
function lostConnectionReason(error: unknown, company: CompanyIdentity): string | undefined {
	if (error instanceof PartnerPayrollApiError && error.httpCode === '401') {
		return `The token of company ${companyName(company)} is invalid or has been revoked (the service answered 401). Connect the company again.`;
	}
	// The credential refused to sign for the company (its row is broken): nothing was sent.
	if (error instanceof NodeOperationError && error.context.failure === 'partnerCompanyList') {
		return error.message;
	}
	return error instanceof CompanyListError ? error.message : undefined;
}

/** What one company's check gave. */
interface CompanyOutcome {
	items: INodeExecutionData[];
	companyState?: object;
	country?: string;
	observation?: ConnectionObservation;
	/** Its check did not finish in the poll's time. */
	notReached?: boolean;
	/** A failure that is not its connection (a 5xx after every attempt, a refused scope). */
	failure?: Error;
}

/** A poll's input, with the companies it watches of the Partner API credential. */
interface PartnerPollInput extends PollInput {
	companies: WatchedCompany[];
	reportConnectionChanges: boolean;
}

/** What the poll over every watched company fires and stores, and how many did not answer. */
export interface PartnerPollResult {
	items: INodeExecutionData[];
	eventState: object;
	partnerState: PartnerState;
	/** The companies that failed, in poll order, when some did (logged; the others' results stand). */
	failed?: CompanyFailure[];
	/** Every company failed and nothing changed: the poll failed as a whole. */
	failedAsWhole: boolean;
	notReached: number;
}

/** What was stored before the poll: the event's state per company, and the partner part. */
interface StoredBeforePoll {
	eventState: PerCompany<object> | undefined;
	partner: PartnerState;
}

/** The companies' outcomes added up, in poll order, before the state is bounded. */
interface OutcomeTally {
	items: INodeExecutionData[];
	/** Each answering company's next event state. */
	updates: Map<string, object>;
	lost: Record<string, string>;
	countries: Record<string, string>;
	notReached: string[];
	failures: CompanyFailure[];
	/** A company's connection changed (reported or not): such a poll did not fail as a whole. */
	healthChanged: boolean;
}

/** Checks every watched company once, `COMPANIES_IN_FLIGHT` at a time, and works out the next state. */
export async function pollPartnerCompanies(
	context: IPollFunctions,
	input: PartnerPollInput,
): Promise<PartnerPollResult> {
	const stored: StoredBeforePoll = {
		eventState: input.watcher.readState(input.stored[input.event]),
		partner: readPartnerState(input.stored.partner),
	};
	const byId = new Map(input.companies.map((company) => [company.companyId, company]));
	const order = pollOrder([...byId.keys()], stored.partner.notReached);
	const outcomes = await checkInPool(
		order,
		input.budget,
		async (companyId) => await checkWatchedCompany(context, input, stored, byId.get(companyId)!),
	);
	const tally = tallyOutcomes(order, byId, outcomes, stored.partner, input.reportConnectionChanges);
	return resultOfPoll(stored, tally, [...byId.keys()], input.reportConnectionChanges);
}

/** Runs `check` for the companies in order, `COMPANIES_IN_FLIGHT` at once. */
async function checkInPool(
	order: string[],
	budget: PollBudget,
	check: (companyId: string) => Promise<CompanyOutcome>,
): Promise<Map<string, CompanyOutcome>> {
	const outcomes = new Map<string, CompanyOutcome>();
	await inPool(order, COMPANIES_IN_FLIGHT, async (companyId) => {
		// Past the poll's time no company starts: those left are checked first next time.
		if (budget.isSpent) return false;
		outcomes.set(companyId, await check(companyId));
		return true;
	});
	return outcomes;
}

/**
 * One company's check as a trigger with its own credential would run it, after its row's problem
 * and (New Document) its country; a failure is its outcome, never the poll's.
 */
async function checkWatchedCompany(
	context: IPollFunctions,
	input: PartnerPollInput,
	stored: StoredBeforePoll,
	company: WatchedCompany,
): Promise<CompanyOutcome> {
	const { connection, watcher, event, budget } = input;
	if (company.problem) return { items: [], observation: { works: false, reason: company.problem } };
	const { companyId } = company;
	let country: string | undefined;
	try {
		if (event === 'newDocument') {
			country = stored.partner.countries[companyId];
			if (country === undefined) {
				budget.check();
				country = await fetchCompanyCountry(context, connection, companyId);
			}
			if (country !== DOCUMENT_COUNTRY) {
				return {
					items: [],
					country,
					...(stored.partner.countries[companyId] ? {} : { observation: { works: true } }),
				};
			}
		}
		const result = await checkCompany(
			watcher,
			{ context, connection, companyId, budget },
			stored.eventState?.companies[companyId],
		);
		if (result.stopped) {
			context.logger.warn(
				`Partner Payroll Trigger: company ${companyId} stopped part-way (${result.stopped.message}); what did not answer is checked at the next poll`,
			);
		}
		return {
			items: result.items.map((item) => withLabel(item, company.label)),
			companyState: result.companyState,
			country,
			observation: { works: true },
			notReached: result.stopped !== undefined && budget.isSpent,
		};
	} catch (error) {
		const reason = lostConnectionReason(error, company);
		if (reason) return { items: [], country, observation: { works: false, reason } };
		if (budget.isSpent) return { items: [], country, notReached: true };
		context.logger.warn(
			`Partner Payroll Trigger: company ${companyId} failed this poll and is checked again at the next one: ${(error as Error).message}`,
		);
		return { items: [], country, failure: error as Error };
	}
}

/** The outcomes added up in poll order: items, next states, connection changes, what did not answer. */
function tallyOutcomes(
	order: string[],
	byId: Map<string, WatchedCompany>,
	outcomes: Map<string, CompanyOutcome>,
	partner: PartnerState,
	reportConnectionChanges: boolean,
): OutcomeTally {
	const tally: OutcomeTally = {
		items: [],
		updates: new Map(),
		lost: { ...partner.lost },
		countries: { ...partner.countries },
		notReached: [],
		failures: [],
		healthChanged: false,
	};
	for (const companyId of order) {
		const outcome = outcomes.get(companyId);
		if (!outcome || outcome.notReached) tally.notReached.push(companyId);
		if (!outcome) continue;
		const company = byId.get(companyId)!;
		if (outcome.observation) {
			const change = connectionChange(company, tally.lost[companyId], outcome.observation);
			if (change.health === undefined) delete tally.lost[companyId];
			else tally.lost[companyId] = change.health;
			if (change.item && reportConnectionChanges) tally.items.push({ json: change.item });
			tally.healthChanged ||= change.item !== undefined;
		}
		tally.items.push(...outcome.items);
		if (outcome.companyState) tally.updates.set(companyId, outcome.companyState);
		if (outcome.country !== undefined) tally.countries[companyId] = outcome.country;
		if (outcome.failure) tally.failures.push({ company, error: outcome.failure });
	}
	return tally;
}

/** The poll's result: the tally with the companies no longer watched dated, and forgotten past retention. */
function resultOfPoll(
	stored: StoredBeforePoll,
	tally: OutcomeTally,
	watched: string[],
	reportConnectionChanges: boolean,
): PartnerPollResult {
	const { eventState, partner } = stored;
	const { lost, countries, failures } = tally;
	const known = [
		...(eventState?.recent ?? []),
		...Object.keys(lost),
		...Object.keys(countries),
		...Object.keys(partner.removedSince),
	];
	const { removedSince, forget } = removedCompanies(partner, known, watched, Date.now());
	for (const companyId of Object.keys(removedSince)) {
		// A company no longer watched has no connection to report: it is reported again if it comes back lost.
		delete lost[companyId];
	}
	return {
		items: tally.items,
		eventState: withCompanyStates(eventState, tally.updates, forget),
		partnerState: {
			// Without the option, nothing is remembered: turning it on reports the losses of that moment.
			lost: reportConnectionChanges ? without(lost, forget) : {},
			countries: without(countries, forget),
			removedSince,
			notReached: tally.notReached,
		},
		...(failures.length ? { failed: failures } : {}),
		failedAsWhole: failures.length > 0 && tally.updates.size === 0 && !tally.healthChanged,
		notReached: tally.notReached.length,
	};
}

/**
 * "Fetch Test Event" over the credential's companies: the sample of the first company that has one,
 * with its label; no state is read or written. Throws the first company's error when none answered.
 */
export async function samplePartnerCompanies(
	context: IPollFunctions,
	input: Pick<PartnerPollInput, 'connection' | 'watcher' | 'event' | 'companies' | 'budget'>,
): Promise<INodeExecutionData[]> {
	const { connection, watcher, event, companies, budget } = input;
	let firstError: unknown;
	for (const company of companies.filter((candidate) => !candidate.problem)) {
		try {
			budget.check();
			if (
				event === 'newDocument' &&
				(await fetchCompanyCountry(context, connection, company.companyId)) !== DOCUMENT_COUNTRY
			) {
				continue;
			}
			const sample = await watcher.sample({
				context,
				connection,
				companyId: company.companyId,
				budget,
			});
			if (sample.length) return sample.map((item) => withLabel(item, company.label));
		} catch (error) {
			if (budget.isSpent) throw asNodeError(context.getNode(), error);
			firstError ??= error;
		}
	}
	if (firstError !== undefined) throw asNodeError(context.getNode(), firstError);
	return [];
}
