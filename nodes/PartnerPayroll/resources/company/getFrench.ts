import type { ErrorContext } from '../../../shared/errors';
import { apiRequest } from '../../../shared/transport';
import { objectAnswer } from '../../helpers/answers';
import { itemCompanyId } from '../../helpers/itemCompany';
import type { Operation } from '../resource';

const errorContext: ErrorContext = { country: 'FR' };

/** GET /companies-fr/{companyId}: the record of a French company with its French fields. */
export const getFrench: Operation = {
	option: {
		name: 'Get French Record',
		value: 'getFrench',
		action: 'Get the French record of a company',
		description: 'Get the record of a French company with its French-specific fields',
	},
	fields: [],
	async execute(itemIndex, connection) {
		const response = await apiRequest(
			this,
			connection,
			{
				method: 'GET',
				companyId: await itemCompanyId(this, itemIndex, connection),
				companyCollection: 'companies-fr',
				path: '',
			},
			{ ...errorContext, itemIndex },
		);
		return [{ json: objectAnswer(this, itemIndex, response) }];
	},
};
