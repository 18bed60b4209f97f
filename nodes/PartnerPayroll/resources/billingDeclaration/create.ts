import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { optionsField } from '../commonFields';

const productNameField: INodeProperties = {
	displayName: 'Product Name',
	name: 'productName',
	type: 'string',
	default: '',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Month of Application',
		name: 'monthOfApplication',
		type: 'string',
		required: true,
		default: '',
		placeholder: '202610',
		description:
			'Month the declaration applies to, as YYYYMM (YYYY-MM and ISO dates are converted)',
	},
	{
		displayName: 'Quantity by Products',
		name: 'quantityByProducts',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add product',
		default: {},
		options: [
			{
				displayName: 'Product',
				name: 'product',
				values: [
					productNameField,
					{
						displayName: 'Quantity',
						name: 'quantity',
						type: 'number',
						default: 0,
						typeOptions: { minValue: 0 },
						description:
							'For example a number of employees, a recurring revenue or a number of meal vouchers',
					},
				],
			},
		],
	},
	optionsField([
		{
			displayName: 'Employees by Products (Deprecated)',
			name: 'employeesByProducts',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add product',
			default: {},
			description:
				'Deprecated by the service in favour of Quantity by Products. Sent instead of it, so leave Quantity by Products empty when you use it.',
			options: [
				{
					displayName: 'Product',
					name: 'product',
					values: [
						productNameField,
						{
							displayName: 'Number of Employees',
							name: 'numberOfEmployees',
							type: 'number',
							default: 0,
							typeOptions: { minValue: 0, numberPrecision: 0 },
						},
					],
				},
			],
		},
	]),
];

export const createDescription = updateDisplayOptions(
	{ show: { resource: ['billingDeclaration'], operation: ['create'] } },
	properties,
);
