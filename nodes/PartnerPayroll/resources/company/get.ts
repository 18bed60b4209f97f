import { companyPath } from '../../../shared/company';
import { objectAnswer } from '../../helpers/answers';
import { forEachItem, type Operation } from '../../helpers/operation';

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
	start: forEachItem(async (item) => {
		const path = companyPath(await item.companyId());
		return [{ json: objectAnswer(item, await item.send({ method: 'GET', path })) }];
	}),
};
