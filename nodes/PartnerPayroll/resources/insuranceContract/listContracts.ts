import { companyPath } from '../../../shared/company';
import { asItems, listAnswer } from '../../helpers/answers';
import { forEachItem, type Operation } from '../../helpers/operation';

/** GET /companies/{companyId}/<kind>-contracts: one item per contract (French companies). */
function listContracts(path: string, option: Operation['option']): Operation {
	return {
		option,
		fields: [],
		errorContext: { country: 'FR' },
		start: forEachItem(async (item) => {
			const response = await item.send({
				method: 'GET',
				path: companyPath(await item.companyId(), path),
			});
			return asItems(listAnswer(item, response, 'contracts'));
		}),
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
