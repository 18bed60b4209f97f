import type { IDataObject } from 'n8n-workflow';

// A company's connection as both triggers report it: one `connectionLost` item when its token stops
// working (or the service says its integration was deactivated), one `connectionRestored` when it
// works again, nothing in between. The stored health is the reason of the loss, or nothing: ids and
// words only, never a token.

export const CONNECTION_LOST = 'connectionLost';
export const CONNECTION_RESTORED = 'connectionRestored';
export const COMPANY_NOT_CONNECTED = 'companyNotConnected';

export interface CompanyIdentity {
	companyId: string;
	/** The company's label in the Partner API credential (its id when it has none). */
	label: string;
}

/** What one poll or delivery found: the connection works, or the reason it does not. */
export type ConnectionObservation = { works: true } | { works: false; reason: string };

/** The stored health of one company: the reason of its loss, undefined while it works. */
export type StoredHealth = string | undefined;

export interface HealthChange {
	/** The item to emit, only when the connection changed. */
	item?: IDataObject;
	/** What to store for the company from now on. */
	health: StoredHealth;
}

/** Once per change: a loss is reported when it starts, a return when the lost connection works again. */
export function connectionChange(
	company: CompanyIdentity,
	stored: StoredHealth,
	observation: ConnectionObservation,
): HealthChange {
	if (observation.works) {
		if (stored === undefined) return { health: undefined };
		return {
			item: { event: CONNECTION_RESTORED, companyId: company.companyId, label: company.label },
			health: undefined,
		};
	}
	// Still lost: a new reason is stored, but the partner was already told.
	if (stored !== undefined) return { health: observation.reason };
	return {
		item: {
			event: CONNECTION_LOST,
			companyId: company.companyId,
			label: company.label,
			reason: observation.reason,
		},
		health: observation.reason,
	};
}

/**
 * The partner's to-do: the service says a company granted access, and the credential cannot serve it
 * (not in its list, or `problem`: its row is not usable).
 */
export function companyNotConnected(company: CompanyIdentity, problem?: string): IDataObject {
	const todo =
		problem === undefined
			? `Connect company ${company.companyId} with the connect link: it is not in the Partner API credential`
			: `Connect company ${company.companyId} again with the connect link: its entry in the Partner API credential is not usable`;
	return {
		event: COMPANY_NOT_CONNECTED,
		companyId: company.companyId,
		label: company.label,
		todo,
		...(problem === undefined ? {} : { problem }),
	};
}
