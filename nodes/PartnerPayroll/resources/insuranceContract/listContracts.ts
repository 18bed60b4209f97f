import type { ErrorContext } from '../../../shared/errors';
import { apiRequest } from '../../../shared/transport';
import { asItems, listAnswer } from '../../helpers/answers';
import { itemCompanyId } from '../../helpers/itemCompany';
import type { Operation } from '../resource';

const errorContext: ErrorContext = { country: 'FR' };

/** GET /companies/{companyId}/<kind>-contracts: one item per contract (French companies). */
function listContracts(path: string, option: Operation['option']): Operation {
	return {
		option,
		fields: [],
		async execute(itemIndex, connection) {
			const response = await apiRequest(
				this,
				connection,
				{ method: 'GET', companyId: await itemCompanyId(this, itemIndex, connection), path },
				{ ...errorContext, itemIndex },
			);
			return asItems(listAnswer(this, itemIndex, response, 'contracts'));
		},
	};
}

export const getHealthInsurance = listContracts('/health-insurance-contracts', {
	name: 'Get Health Insurance Contracts',
	value: 'getHealthInsurance',
	action: 'Get health insurance contracts',
	description:
		'List the French health insurance (mutuelle) contracts, one item per contract (French companies)',
});

export const getProvidentFund = listContracts('/provident-fund-contracts', {
	name: 'Get Provident Fund Contracts',
	value: 'getProvidentFund',
	action: 'Get provident fund contracts',
	description:
		'List the French provident fund (prévoyance) contracts, one item per contract (French companies)',
});
