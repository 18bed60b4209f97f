import type { INode } from 'n8n-workflow';

import {
	readEvent,
	utcInstant,
} from '../../../../nodes/PartnerPayrollWebhookTrigger/helpers/events';
import { dedupeKey } from '../../../../nodes/PartnerPayrollWebhookTrigger/helpers/webhookItems';
import { inTimeZone } from '../../../support/time-zone';

const node = { name: 'Partner Payroll Webhook Trigger' } as INode;
const read = (body: unknown) => readEvent(Buffer.from(JSON.stringify(body)), node);

describe('events', () => {
	it("reads the service's date format (+00:00) as one instant in ISO UTC with milliseconds", () => {
		expect(utcInstant('2023-01-30T13:02:33+00:00')).toBe('2023-01-30T13:02:33.000Z');
		expect(utcInstant('2023-01-30T14:02:33.5+01:00')).toBe('2023-01-30T13:02:33.500Z');
		expect(utcInstant('2023-01-30T13:02:33Z')).toBe('2023-01-30T13:02:33.000Z');
		expect(utcInstant('yesterday')).toBeUndefined();
		expect(utcInstant('2023-01-30')).toBeUndefined();
		expect(utcInstant('2023-01-30T25:02:33Z')).toBeUndefined();
	});

	it('reads a date-time without an offset as UTC, whatever the zone of the server', () => {
		const read = inTimeZone(
			'America/New_York',
			`return dist('nodes/PartnerPayrollWebhookTrigger/helpers/events').utcInstant('2023-01-30T13:02:33');`,
		);
		expect(read).toBe('2023-01-30T13:02:33.000Z');
	});

	it('reads the three event types; another type is unknown, not a problem', () => {
		const data = { companyId: 'FR1001', effectiveDate: '2023-01-30T13:02:33+00:00' };
		expect(read({ type: 'payroll.run', data: { ...data, payrollMonth: '202301' } })).toEqual({
			event: {
				event: 'payroll.run',
				companyId: 'FR1001',
				month: '202301',
				effectiveDate: '2023-01-30T13:02:33.000Z',
				effectiveDateRaw: '2023-01-30T13:02:33+00:00',
			},
		});
		expect(read({ type: 'integration.activated', data })).toMatchObject({
			event: { event: 'integration.activated', companyId: 'FR1001' },
		});
		expect(read({ type: 'payroll.deleted', data })).toEqual({ unknownType: 'payroll.deleted' });
	});

	it.each([
		[[1, 2], 'the body is not a JSON object'],
		[{ type: 'payroll.run' }, 'the payroll.run event has no "data" object'],
		[
			{
				type: 'payroll.run',
				data: { effectiveDate: '2023-01-30T13:02:33Z', payrollMonth: '202301' },
			},
			'no usable "data.companyId"',
		],
		[
			{
				type: 'payroll.run',
				data: {
					companyId: 'FR1001',
					effectiveDate: '2023-01-30T13:02:33Z',
					payrollMonth: '202313',
				},
			},
			'"data.payrollMonth" is not YYYYMM',
		],
		[
			{
				type: 'payroll.run',
				data: {
					companyId: 'FR1001',
					effectiveDate: '2023-01-30T13:02:33Z',
					payrollMonth: '2023-01',
				},
			},
			'"data.payrollMonth" is not YYYYMM',
		],
	])('a body that can never be read: %j', (body, problem) => {
		expect(read(body)).toEqual({ problem: expect.stringContaining(problem) });
	});

	it('dedupeKey shapes: first completion, re-run, integration change', () => {
		const run = {
			event: 'payroll.run' as const,
			companyId: 'FR1001',
			month: '202301',
			effectiveDate: '2023-01-30T13:02:33.000Z',
			effectiveDateRaw: '2023-01-30T13:02:33+00:00',
		};
		expect(dedupeKey(run, false)).toBe('payroll:FR1001:202301');
		expect(dedupeKey(run, true)).toBe('payroll:FR1001:202301:2023-01-30T13:02:33.000Z');
		expect(dedupeKey({ ...run, month: undefined, event: 'integration.activated' }, false)).toBe(
			'integration:FR1001:activated:2023-01-30T13:02:33.000Z',
		);
	});
});
