import type { INodeProperties } from 'n8n-workflow';

import { operationRouting } from '../../helpers/hooks';

export const companyOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['company'] } },
	options: [
		{
			name: 'Get',
			value: 'get',
			action: 'Get a company',
			description:
				'Get the record of a company: name, country, identification number, address, active contracts',
			routing: operationRouting({ method: 'GET', path: '/companies/{companyId}' }),
		},
		{
			name: 'Get French Record',
			value: 'getFrench',
			action: 'Get the french record of a company',
			description: 'Get the record of a French company with its French-specific fields',
			routing: operationRouting({
				method: 'GET',
				path: '/companies-fr/{companyId}',
				country: 'FR',
			}),
		},
	],
	default: 'get',
};
