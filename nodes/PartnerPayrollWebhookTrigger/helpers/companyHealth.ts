import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { readCompanyRows } from '../../../credentials/partnerCompanies';
import {
	companyNotConnected,
	connectionChange,
	type CompanyIdentity,
} from '../../shared/connectionHealth';
import type { ServiceEvent } from './events';
import { isInFlight } from '../../shared/inFlight';
import { readCredentialShared } from './credentialReads';

// With a Partner API credential linked, the service's integration events become connection changes
// of the credential's companies: integration.deactivated a connectionLost, integration.activated a
// connectionRestored after a loss, or the partner's to-do for a company the credential cannot serve.
// Once per change: what was reported is kept per company in static data (ids, a reason and a date),
// beside the delivery record, and in this process's memory beside the delivery memory (a static data
// save can lose to a concurrent one, as the delivery record's can).

export const MATCH_PARTNER_COMPANIES = 'matchPartnerCompanies';

/** A company of the linked credential: its id and label, and why its row cannot serve requests. Never its token. */
export interface KnownCompany extends CompanyIdentity {
	problem?: string;
}

/** The linked credential's companies by id. */
export type PartnerList = Map<string, KnownCompany>;

/** The companies of the linked Partner API credential, or undefined when none is linked. */
export async function readPartnerList(
	context: IWebhookFunctions,
): Promise<PartnerList | undefined> {
	if (context.getNodeParameter(MATCH_PARTNER_COMPANIES, false) !== true) return undefined;
	const rows = readCompanyRows(await readCredentialShared(context, 'partnerPayrollPartnerApi'));
	return new Map(
		rows
			.filter((row) => row.companyId !== '')
			.map((row) => [
				row.companyId,
				{
					companyId: row.companyId,
					label: row.label || row.companyId,
					...(row.problem === undefined ? {} : { problem: row.problem }),
				},
			]),
	);
}

/** The label an item carries: the credential's, or the id of a company the credential does not hold. */
export const labelOf = (list: PartnerList, companyId: string) =>
	list.get(companyId)?.label ?? companyId;

/** One company's connection as stored: the reason of its loss (absent while it works), and the effectiveDate of the event that last changed it. */
export interface HealthEntry {
	lost?: string;
	at: string;
}

export type HealthRecord = Record<string, HealthEntry>;

/** Companies kept at the most (those changed longest ago go first): a partner's list is hundreds. */
export const HEALTH_LIMIT = 2000;

/** The health kept in the stored delivery record, whatever static data holds. */
export function readHealth(storedRecord: unknown): HealthRecord {
	const health: HealthRecord = {};
	const stored = (storedRecord as { health?: unknown } | undefined)?.health;
	if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return health;
	for (const [companyId, entry] of Object.entries(stored as Record<string, unknown>)) {
		const { lost, at } = (entry ?? {}) as { lost?: unknown; at?: unknown };
		if (typeof at !== 'string') continue;
		health[companyId] = typeof lost === 'string' ? { lost, at } : { at };
	}
	return health;
}

/** Per company, the entry changed last (`second`'s on a tie); bounded. */
export function laterHealth(first: HealthRecord, second: HealthRecord): HealthRecord {
	const merged: HealthRecord = { ...first };
	for (const [companyId, entry] of Object.entries(second)) {
		const known = merged[companyId];
		if (!known || known.at <= entry.at) merged[companyId] = entry;
	}
	const byAge = Object.entries(merged).sort(([, a], [, b]) => a.at.localeCompare(b.at));
	return Object.fromEntries(byAge.slice(-HEALTH_LIMIT));
}

/** This process's memory of one trigger node's connection changes (kept with its delivery memory). */
export interface HealthMemory {
	/** Changes handed over to n8n by this process. */
	known: HealthRecord;
	/** Companies whose change is being handed over → since when (ms). */
	holding: Map<string, number>;
}

/** Whether another change of the company is being handed to n8n: this one waits (two at once could both report). */
export function companyHeld(memory: HealthMemory, companyId: string, nowMs: number): boolean {
	return isInFlight(memory.holding, companyId, nowMs);
}

/** Holds the company until `release`; a change handed over is remembered. */
export function holdCompany(
	memory: HealthMemory,
	change: HealthRecord,
	nowMs: number,
): (handedOver: boolean) => void {
	for (const companyId of Object.keys(change)) memory.holding.set(companyId, nowMs);
	return (handedOver) => {
		for (const companyId of Object.keys(change)) memory.holding.delete(companyId);
		if (handedOver) memory.known = laterHealth(memory.known, change);
	};
}

export type HealthOutcome =
	/** `change`: what to store for the company (none: the stored health stays). */
	{ kind: 'emit'; item: IDataObject; change?: HealthRecord } | { kind: 'nothing'; why: string };

const LOST_BY_DEACTIVATION = 'integration.deactivated';

/**
 * What an integration event of a company says about its connection, given the stored health. With
 * `assumeChange` (the Test URL, which reads no state) the event shows as the change it can make.
 */
export function integrationOutcome(
	event: ServiceEvent,
	list: PartnerList,
	health: HealthRecord,
	assumeChange = false,
): HealthOutcome {
	const { companyId, effectiveDate } = event;
	const company = list.get(companyId);
	const stored = assumeChange ? undefined : health[companyId];
	if (stored && effectiveDate < stored.at) {
		return {
			kind: 'nothing',
			why: `${event.event} of ${effectiveDate} is older than company ${companyId}'s last connection change (${stored.at})`,
		};
	}
	if (event.event === 'integration.activated') {
		if (!company || company.problem !== undefined) {
			return {
				kind: 'emit',
				item: companyNotConnected(company ?? { companyId, label: companyId }, company?.problem),
			};
		}
		const lost = assumeChange ? LOST_BY_DEACTIVATION : stored?.lost;
		const change = connectionChange(company, lost, { works: true });
		return change.item
			? { kind: 'emit', item: change.item, change: { [companyId]: { at: effectiveDate } } }
			: { kind: 'nothing', why: `company ${companyId}'s connection was not reported lost` };
	}
	if (!company) {
		return { kind: 'nothing', why: `company ${companyId} is not in the Partner API credential` };
	}
	const change = connectionChange(company, stored?.lost, {
		works: false,
		reason: LOST_BY_DEACTIVATION,
	});
	return change.item
		? {
				kind: 'emit',
				item: change.item,
				change: { [companyId]: { lost: String(change.health), at: effectiveDate } },
			}
		: { kind: 'nothing', why: `company ${companyId}'s connection was already reported lost` };
}
