import {
	RECORD_LIMITS,
	claim,
	decide,
	forgetProcessMemory,
	processMemory,
	readRecord,
} from '../../../../nodes/PartnerPayrollWebhookTrigger/helpers/deliveries';
import { IN_FLIGHT_MAX_MS } from '../../../../nodes/shared/inFlight';
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
		expect(readRecord(undefined)).toEqual({ events: {}, messages: [] });
		expect(readRecord({ events: [1], messages: 'x' })).toEqual({ events: {}, messages: [] });
		expect(readRecord({ events: { a: ['d', 3] }, messages: ['m', 1] })).toEqual({
			events: { a: ['d'] },
			messages: ['m'],
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
		expect(Object.keys(stored.events)).toHaveLength(RECORD_LIMITS.eventKeys);
		expect(stored.events['payroll:FR1001:200001']).toBeUndefined();
		expect(stored.messages).toHaveLength(RECORD_LIMITS.messageIds);
		expect(stored.messages.at(-1)).toBe(`msg_${total - 1}`);
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
