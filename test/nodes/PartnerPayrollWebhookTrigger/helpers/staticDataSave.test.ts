import { ObservableObject, type IDataObject, type IObservableObject } from 'n8n-workflow';

import { startAndRecord } from '../../../../nodes/PartnerPayrollWebhookTrigger/helpers/staticDataSave';

/** A workflow's static data as n8n's Workflow observes it, with a node's 'global' object. */
function observedStaticData() {
	const target: IDataObject = { global: { other: 'kept' } };
	const root = ObservableObject.create(target);
	return { target, root, global: root.global as IDataObject };
}

describe('startAndRecord', () => {
	const items = [[{ json: { event: 'payroll.run' } }]];
	const record = {
		events: { 'payroll:FR1001:202611': ['2026-11-27T18:00:00.000Z'] },
		messages: ['msg_1'],
	};
	const body = { message: 'Workflow started for message msg_1' };

	it('writes the record only when n8n reads the answer, so after it cleared the change mark the record is still saved', () => {
		const { target, root, global } = observedStaticData();
		const result = startAndRecord(items, global, () => ({ record }), body);
		expect(result.workflowData).toBe(items);
		expect(global.record).toBeUndefined();
		// n8n 2.40 builds a second Workflow on the same static data while it starts the execution.
		ObservableObject.create(target);
		expect((root as IObservableObject).__dataChanged).toBe(false);
		expect(result.webhookResponse).toEqual(body);
		expect((root as IObservableObject).__dataChanged).toBe(true);
		expect(JSON.parse(JSON.stringify(target))).toEqual({ global: { other: 'kept', record } });
	});

	it('a copy of the result (n8n spreading it) writes nothing: only the read of the answer does', () => {
		const { root, global } = observedStaticData();
		const result = startAndRecord(items, global, () => ({ record }), body);
		const copy = { ...result, ...JSON.parse(JSON.stringify(result)) };
		expect(copy.webhookResponse).toBeUndefined();
		expect((root as IObservableObject).__dataChanged).toBe(false);
		expect(global.record).toBeUndefined();
	});
});
