import {
	RECORD_LIMITS,
	claim,
	decide,
	forgetProcessMemory,
	processMemory,
	readRecord,
} from '../../../../nodes/PartnerPayrollWebhookTrigger/helpers/deliveries';
import { IN_FLIGHT_MAX_MS } from '../../../../nodes/shared/inFlight';
import { recordDigest } from '../../../../nodes/shared/recordDigest';
import type { ServiceEvent } from '../../../../nodes/PartnerPayrollWebhookTrigger/helpers/events';

const run = (month: string, effectiveDate = '2026-11-27T18:00:00.000Z'): ServiceEvent => ({
	event: 'payroll.run',
	companyId: 'FR1001',
	month,
	effectiveDate,
	effectiveDateRaw: effectiveDate,
});

beforeEach(() => forgetProcessMemory());

describe('the dedupe record', () => {
	it('reads whatever static data holds: nothing, foreign shapes', () => {
		const empty = { events: [], dates: [], messages: [] };
		expect(readRecord(undefined)).toEqual(empty);
		expect(readRecord({ events: { a: ['d'] }, messages: 'x' })).toEqual(empty);
		expect(readRecord({ events: ['e', 3], dates: [null, 'd'], messages: ['m', 1] })).toEqual({
			events: ['e'],
			dates: ['d'],
			messages: ['m'],
		});
	});

	it('stores digests, not the companies, months and message ids it saw', () => {
		const memory = processMemory('scope');
		const { toStore } = claim(
			{ stored: readRecord(undefined), memory, event: run('202611'), messageId: 'msg_1' },
			0,
		);
		const stored = JSON.stringify(toStore);
		for (const seen of ['FR1001', '202611', 'msg_1', '2026-11-27'])
			expect(stored).not.toContain(seen);
		expect(toStore).toEqual({
			events: [recordDigest('payroll:FR1001:202611')],
			dates: [recordDigest('payroll:FR1001:202611 2026-11-27T18:00:00.000Z')],
			messages: [recordDigest('msg_1')],
		});
	});

	it('is bounded: the oldest months and message ids go first', () => {
		const memory = processMemory('scope');
		let stored = readRecord(undefined);
		const total = RECORD_LIMITS.eventKeys + 5;
		for (let index = 0; index < total; index += 1) {
			const month = String(200001 + index);
			const claimed = claim({ stored, memory, event: run(month), messageId: `msg_${index}` }, 0);
			stored = claimed.toStore;
			claimed.settle(false);
		}
		expect(stored.events).toHaveLength(RECORD_LIMITS.eventKeys);
		expect(stored.events).not.toContain(recordDigest('payroll:FR1001:200001'));
		expect(stored.events).toContain(recordDigest('payroll:FR1001:200006'));
		expect(stored.messages).toHaveLength(RECORD_LIMITS.messageIds);
		expect(stored.messages.at(-1)).toBe(recordDigest(`msg_${total - 1}`));
		// The oldest month forgotten, its next delivery fires as new; a month still kept is a duplicate.
		const input = (month: string, messageId: string) => ({
			stored,
			memory: processMemory('another process'),
			event: run(month),
			messageId,
			fireOnRerun: false,
		});
		expect(decide(input('200001', 'msg_a'), 0)).toEqual({ kind: 'fire', isRerun: false });
		expect(decide(input('200006', 'msg_b'), 0).kind).toBe('duplicate');
	});

	it('forgets a delivery held in flight longer than the limit (a hand-over that never answered)', () => {
		const memory = processMemory('scope');
		const stored = readRecord(undefined);
		claim({ stored, memory, event: run('202611'), messageId: 'msg_1' }, 1000);
		const input = { stored, memory, event: run('202611'), messageId: 'msg_1', fireOnRerun: false };
		expect(decide(input, 1000 + IN_FLIGHT_MAX_MS).kind).toBe('inFlight');
		expect(decide(input, 1001 + IN_FLIGHT_MAX_MS)).toEqual({ kind: 'fire', isRerun: false });
	});
});
