import type { INodeProperties } from 'n8n-workflow';

import { operationRouting } from '../../helpers/hooks';

const contractsRouting = (path: string) =>
	operationRouting({
		method: 'GET',
		path,
		country: 'FR',
		postReceive: [{ type: 'rootProperty', properties: { property: 'contracts' } }],
	});

export const insuranceContractOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['insuranceContract'] } },
	options: [
		{
			name: 'Get Health Insurance Contracts',
			value: 'getHealthInsurance',
			action: 'Get the health insurance contracts of a company',
			description:
				'List the French health insurance (mutuelle) contracts, one item per contract (French companies)',
			routing: contractsRouting('/companies/{companyId}/health-insurance-contracts'),
		},
		{
			name: 'Get Provident Fund Contracts',
			value: 'getProvidentFund',
			action: 'Get the provident fund contracts of a company',
			description:
				'List the French provident fund (prévoyance) contracts, one item per contract (French companies)',
			routing: contractsRouting('/companies/{companyId}/provident-fund-contracts'),
		},
	],
	default: 'getHealthInsurance',
};
