import { updateDisplayOptions } from 'n8n-workflow';

import { companyPath } from '../../../shared/company';
import { asItems, listAnswer } from '../../helpers/answers';
import { forEachItem, type Operation } from '../../helpers/operation';
import { monthField } from '../commonFields';

/** GET /companies/{companyId}/accounting-v2?date=YYYYMM: one item per entry (French companies). */
export const getEntries: Operation = {
	option: {
		name: 'Get Entries',
		value: 'getEntries',
		action: 'Get accounting entries',
		description: 'Get the accounting entries of a month, one item per entry (French companies)',
	},
	fields: updateDisplayOptions({ show: { resource: ['accounting'], operation: ['getEntries'] } }, [
		monthField,
	]),
	errorContext: { country: 'FR' },
	start: forEachItem(async (item) => {
		const month = item.month();
		const response = await item.send({
			method: 'GET',
			path: companyPath(await item.companyId(), '/accounting-v2'),
			qs: { date: month },
		});
		return asItems(listAnswer(item, response));
	}),
};
