import { apiRequest } from '../../../shared/transport';
import { objectAnswer } from '../../helpers/answers';
import { itemCompanyId } from '../../helpers/itemCompany';
import type { Operation } from '../resource';

/** GET /companies/{companyId}: the company record. */
export const get: Operation = {
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get a company',
		description:
			'Get the record of a company: name, country, identification number, address, active contracts. An empty Company ID means the company of the token.',
	},
	fields: [],
	async execute(itemIndex, connection) {
		const response = await apiRequest(
			this,
			connection,
			{ method: 'GET', companyId: await itemCompanyId(this, itemIndex, connection), path: '' },
			{ itemIndex },
		);
		return [{ json: objectAnswer(this, itemIndex, response) }];
	},
};
