import {
	COMPANY_NOT_CONNECTED,
	CONNECTION_LOST,
	CONNECTION_RESTORED,
	companyNotConnected,
	connectionChange,
	type ConnectionObservation,
	type StoredHealth,
} from '../../../nodes/shared/connectionHealth';

const acme = { companyId: 'FR5001', label: 'ACME' };
const revoked: ConnectionObservation = { works: false, reason: 'The token was revoked' };
const works: ConnectionObservation = { works: true };

/** The items a sequence of observations emits, starting from a working connection. */
function itemsOf(observations: ConnectionObservation[]) {
	let health: StoredHealth;
	const items = [];
	for (const observation of observations) {
		const change = connectionChange(acme, health, observation);
		health = change.health;
		if (change.item) items.push(change.item);
	}
	return { items, health };
}

describe('connectionChange', () => {
	it('emits nothing while the connection works', () => {
		expect(itemsOf([works, works, works])).toEqual({ items: [], health: undefined });
	});

	it('emits one connectionLost for a loss seen on many polls, with the company and the reason', () => {
		const { items, health } = itemsOf([works, revoked, revoked, revoked]);
		expect(items).toEqual([
			{
				event: CONNECTION_LOST,
				companyId: 'FR5001',
				label: 'ACME',
				reason: 'The token was revoked',
			},
		]);
		expect(health).toBe('The token was revoked');
	});

	it('emits one connectionRestored when the lost connection works again, and a new loss later', () => {
		const { items, health } = itemsOf([revoked, works, works, revoked]);
		expect(items.map((item) => item.event)).toEqual([
			CONNECTION_LOST,
			CONNECTION_RESTORED,
			CONNECTION_LOST,
		]);
		expect(items[1]).toEqual({ event: CONNECTION_RESTORED, companyId: 'FR5001', label: 'ACME' });
		expect(health).toBe('The token was revoked');
	});

	it('keeps the newest reason of a loss without telling it again', () => {
		const deactivated: ConnectionObservation = { works: false, reason: 'integration.deactivated' };
		const { items, health } = itemsOf([revoked, deactivated]);
		expect(items).toHaveLength(1);
		expect(health).toBe('integration.deactivated');
	});
});

describe('companyNotConnected', () => {
	it("is the partner's to-do: connect the company, or connect it again with the reason its row is not usable", () => {
		expect(companyNotConnected({ companyId: 'GB7001', label: 'GB7001' })).toEqual({
			event: COMPANY_NOT_CONNECTED,
			companyId: 'GB7001',
			label: 'GB7001',
			todo: 'Connect company GB7001 with the connect link: it is not in the Partner API credential',
		});
		expect(companyNotConnected(acme, 'The row has no Access Token.')).toEqual({
			event: COMPANY_NOT_CONNECTED,
			companyId: 'FR5001',
			label: 'ACME',
			todo: 'Connect company FR5001 again with the connect link: its entry in the Partner API credential is not usable',
			problem: 'The row has no Access Token.',
		});
	});
});
