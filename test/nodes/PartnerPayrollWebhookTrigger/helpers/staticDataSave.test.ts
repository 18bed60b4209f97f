import { sleep, type IDataObject } from 'n8n-workflow';

import { writeUntilAnswered } from '../../../../nodes/PartnerPayrollWebhookTrigger/helpers/staticDataSave';

/** Static data that counts the writes of one field, as n8n's change mark would see them. */
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

describe('writeUntilAnswered', () => {
	it('writes at once, again while the answer has not left, and never after', async () => {
		const { staticData, counter } = countingStaticData();
		const record = { events: {}, messages: ['msg_1'] };
		let answered = false;
		writeUntilAnswered(staticData, 'deliveries', record, () => answered);
		expect(counter.writes).toBe(1);
		expect(staticData.deliveries).toBe(record);
		await sleep(30);
		expect(counter.writes).toBeGreaterThan(1);
		answered = true;
		await sleep(10);
		const afterAnswer = counter.writes;
		await sleep(30);
		expect(counter.writes).toBe(afterAnswer);
		expect(staticData.deliveries).toBe(record);
	});
});
