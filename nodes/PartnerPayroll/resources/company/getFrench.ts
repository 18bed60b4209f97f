import { companyPath } from '../../../shared/company';
import { objectAnswer } from '../../helpers/answers';
import { forEachItem, type Operation } from '../../helpers/operation';

/** GET /companies-fr/{companyId}: the record of a French company with its French fields. */
export const getFrench: Operation = {
	option: {
		name: 'Get French Record',
		value: 'getFrench',
		action: 'Get the French record of a company',
		description: 'Get the record of a French company with its French-specific fields',
	},
	fields: [],
	errorContext: { country: 'FR' },
	start: forEachItem(async (item) => {
		const path = companyPath(await item.companyId(), '', 'companies-fr');
		return [{ json: objectAnswer(item, await item.send({ method: 'GET', path })) }];
	}),
};
