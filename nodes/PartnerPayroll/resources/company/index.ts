import type { INodeProperties } from 'n8n-workflow';

import { operationRouting } from '../../helpers/routing';
import { companyIdFieldOf } from '../commonFields';

const operationSelector: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['company'] } },
	options: [
		{
			name: 'Get',
			value: 'get',
			action: 'Get a company by its id or the company of the token when the id is empty',
			description:
				'Get the record of a company: name, country, identification number, address, active contracts',
			routing: operationRouting({ method: 'GET', belowCompany: '' }),
		},
		{
			name: 'Get French Record',
			value: 'getFrench',
			action: 'Get the french record of a company by its french company id',
			description: 'Get the record of a French company with its French-specific fields',
			routing: operationRouting({
				method: 'GET',
				belowCompany: '',
				collection: 'companies-fr',
				country: 'FR',
			}),
		},
	],
	default: 'get',
};

export const companyDescription: INodeProperties[] = [
	operationSelector,
	companyIdFieldOf('company'),
];
