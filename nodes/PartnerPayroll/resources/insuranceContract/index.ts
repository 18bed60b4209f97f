import type { INodeProperties } from 'n8n-workflow';

import { operationRouting } from '../../helpers/routing';
import { companyIdFieldOf } from '../commonFields';

const contractsRouting = (belowCompany: string) =>
	operationRouting({
		method: 'GET',
		belowCompany,
		country: 'FR',
		postReceive: [{ type: 'rootProperty', properties: { property: 'contracts' } }],
	});

const operationSelector: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['insuranceContract'] } },
	options: [
		{
			name: 'Get Health Insurance Contracts',
			value: 'getHealthInsurance',
			action: 'Get the health insurance contracts of a french company',
			description:
				'List the French health insurance (mutuelle) contracts, one item per contract (French companies)',
			routing: contractsRouting('/health-insurance-contracts'),
		},
		{
			name: 'Get Provident Fund Contracts',
			value: 'getProvidentFund',
			action: 'Get the provident fund contracts of a french company',
			description:
				'List the French provident fund (prévoyance) contracts, one item per contract (French companies)',
			routing: contractsRouting('/provident-fund-contracts'),
		},
	],
	default: 'getHealthInsurance',
};

export const insuranceContractDescription: INodeProperties[] = [
	operationSelector,
	companyIdFieldOf('insuranceContract'),
];
