import { updateDisplayOptions } from 'n8n-workflow';

import type { ErrorContext } from '../../../shared/errors';
import { apiRequest } from '../../../shared/transport';
import { asItems, listAnswer } from '../../helpers/answers';
import { itemCompanyId } from '../../helpers/itemCompany';
import type { Operation } from '../resource';
import { monthField, monthOf } from '../../../shared/month';

const errorContext: ErrorContext = { country: 'FR' };

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
	async execute(itemIndex, connection) {
		const month = monthOf(this, itemIndex);
		const response = await apiRequest(
			this,
			connection,
			{
				method: 'GET',
				companyId: await itemCompanyId(this, itemIndex, connection),
				path: '/accounting-v2',
				qs: { date: month },
			},
			{ ...errorContext, itemIndex },
		);
		return asItems(listAnswer(this, itemIndex, response));
	},
};
