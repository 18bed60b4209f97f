import type { IDataObject } from 'n8n-workflow';

import { withRecordSavedOnAnswer } from '../../../../nodes/PartnerPayrollWebhookTrigger/helpers/staticDataSave';

/** Static data that counts the writes, as n8n's change mark sees them. */
function countingStaticData() {
	const counter = { writes: 0 };
	const staticData = new Proxy<IDataObject>(
		{},
		{
			set(target, name, value) {
				counter.writes += 1;
				return Reflect.set(target, name, value);
			},
		},
	);
	return { staticData, counter };
}

describe('withRecordSavedOnAnswer', () => {
	it('writes the record at once, and again when n8n reads the answer body, which stays n8n’s own', () => {
		const { staticData, counter } = countingStaticData();
		const record = { events: {}, messages: ['msg_1'] };
		const workflowData = [[{ json: { event: 'payroll.run' } }]];
		const result = withRecordSavedOnAnswer({ workflowData }, staticData, 'deliveries', record);
		expect(counter.writes).toBe(1);
		expect(staticData.deliveries).toBe(record);
		expect(result.workflowData).toBe(workflowData);
		// What n8n does after it started the execution (extractWebhookOnReceivedResponse).
		expect(result.webhookResponse).toBeUndefined();
		expect(counter.writes).toBe(2);
		expect(staticData.deliveries).toBe(record);
		// Nothing new to serialise or spread.
		expect(Object.keys(result)).toEqual(['workflowData']);
	});
});
