import {
	updateDisplayOptions,
	type IDataObject,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { companyPath } from '../../../shared/company';
import { parameterError } from '../../../shared/errors';
import { MONTH_HELP } from '../../../shared/month';
import { isObject } from '../../../shared/objects';
import type { Item, Operation } from '../../helpers/operation';
import { optionsField } from '../commonFields';
import { sendEachDeclarationOnce } from './ledger';

/** The Month of Application field's tooltip. */
const MONTH_OF_APPLICATION_DESCRIPTION = `Month the declaration applies to. ${MONTH_HELP}`;

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
		description: MONTH_OF_APPLICATION_DESCRIPTION,
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

interface ProductQuantity {
	productName?: string;
	quantity?: number;
	numberOfEmployees?: number;
}

/** The declaration of one item, checked locally: month, one form of products, names and amounts. */
export function declarationOf(item: Item): IDataObject {
	const monthOfApplication = item.month({
		name: 'monthOfApplication',
		displayName: 'Month of Application',
	});
	const quantities = item.parameter<ProductQuantity[]>('quantityByProducts.product', []);
	const employees = item.parameter<ProductQuantity[]>('options.employeesByProducts.product', []);
	const fail = (message: string) => parameterError(item.node, message, { itemIndex: item.index });

	if (quantities.length && employees.length) {
		throw fail('Use either Quantity by Products or the deprecated Employees by Products, not both');
	}
	if (!quantities.length && !employees.length) {
		throw fail('Quantity by Products needs at least one product');
	}
	const field = employees.length ? 'numberOfEmployees' : 'quantity';
	const products = (employees.length ? employees : quantities).map((product, index) => {
		const productName = String(product.productName ?? '').trim();
		const amount = Number(product[field]);
		if (!productName) throw fail(`Product Name of product ${index + 1} is empty`);
		if (
			!Number.isFinite(amount) ||
			amount < 0 ||
			(field === 'numberOfEmployees' && !Number.isInteger(amount))
		) {
			throw fail(
				`${field === 'quantity' ? 'Quantity' : 'Number of Employees'} of product ${index + 1} must be ${field === 'quantity' ? 'a number' : 'a whole number'} of 0 or more`,
			);
		}
		return { productName, [field]: amount };
	});
	return {
		monthOfApplication,
		[employees.length ? 'employeesByProducts' : 'quantityByProducts']: products,
	};
}

/** POST /companies/{companyId}/billing-declarations: what was declared, for whom, with the service's answer. */
async function sendDeclaration(
	item: Item,
	declaration: IDataObject,
): Promise<INodeExecutionData[]> {
	const { companyId, ...body } = declaration;
	const response = await item.send({
		method: 'POST',
		path: companyPath(String(companyId), '/billing-declarations'),
		body,
	});
	const serviceAnswer = isObject(response.body) ? response.body : {};
	return [{ json: { declared: true, ...declaration, serviceAnswer } }];
}

export const create: Operation = {
	option: {
		name: 'Create',
		value: 'create',
		action: 'Create a billing declaration',
		description:
			'Declare the billing data of a company for a month (partner applications only). An identical declaration is sent once per execution; a repeat gets the first confirmation.',
	},
	fields: updateDisplayOptions(
		{ show: { resource: ['billingDeclaration'], operation: ['create'] } },
		properties,
	),
	errorContext: { effect: 'The billing declaration' },
	// Sent once and in order: the next declaration leaves only when the one before was answered.
	oneItemAtATime: true,
	start: async (items) =>
		await sendEachDeclarationOnce(items, {
			check: (item) => {
				item.typedCompanyId();
				return declarationOf(item);
			},
			withCompany: async (item, declaration) => ({
				companyId: await item.companyId(),
				...declaration,
			}),
			send: sendDeclaration,
		}),
};
