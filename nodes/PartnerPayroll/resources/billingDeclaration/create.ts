import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import type { Connection } from '../../../shared/connection';
import { parameterError, type ErrorContext } from '../../../shared/errors';
import { monthFieldOf, monthOf } from '../../../shared/month';
import { isObject } from '../../../shared/bodies';
import { apiRequest } from '../../../shared/transport';
import { listedCompanyId } from '../../helpers/itemCompany';
import { optionsField, type Operation } from '../resource';
import { declarationFailure, pendingDeclaration, recordDeclaration, startBatch } from './ledger';
import { askRecord, settleFailed, settleSent } from './recorded';

const productNameField: INodeProperties = {
	displayName: 'Product Name',
	name: 'productName',
	type: 'string',
	default: '',
};

const monthOfApplicationField = monthFieldOf(
	{ displayName: 'Month of Application', name: 'monthOfApplication' },
	'Month the declaration applies to.',
);

const properties: INodeProperties[] = [
	monthOfApplicationField,
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
			displayName: 'Declare Again',
			name: 'declareAgain',
			type: 'boolean',
			default: false,
			description:
				'Whether to send a declaration that this n8n already sent (same company, month and quantities). Off: a repeat gets the first confirmation and nothing is sent, since a second declaration is a second bill.',
		},
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

const errorContext: ErrorContext = { effect: 'The billing declaration' };

/** The declaration of one item, checked locally: month, one form of products, names and amounts. */
export function declarationOf(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const monthOfApplication = monthOf(context, itemIndex, monthOfApplicationField);
	const parameter = <T>(name: string, fallback: T) =>
		context.getNodeParameter(name, itemIndex, fallback) as T;
	const quantities = parameter<ProductQuantity[]>('quantityByProducts.product', []);
	const employees = parameter<ProductQuantity[]>('options.employeesByProducts.product', []);
	const fail = (message: string) => parameterError(context.getNode(), message, { itemIndex });

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
	context: IExecuteFunctions,
	itemIndex: number,
	connection: Connection,
	declaration: IDataObject,
): Promise<INodeExecutionData[]> {
	const { companyId, ...body } = declaration;
	const response = await apiRequest(
		context,
		connection,
		{ method: 'POST', companyId: String(companyId), path: '/billing-declarations', body },
		{ ...errorContext, itemIndex },
	);
	const serviceAnswer = isObject(response.body) ? response.body : {};
	return [{ json: { declared: true, ...declaration, serviceAnswer } }];
}

/** The item's checks before anything is sent: its company as typed (not looked up) and its declaration. */
function checkedDeclaration(
	context: IExecuteFunctions,
	itemIndex: number,
	connection: Connection,
): IDataObject | Error {
	try {
		listedCompanyId(context, itemIndex, connection);
		return declarationOf(context, itemIndex);
	} catch (error) {
		return error as Error;
	}
}

export const create: Operation = {
	option: {
		name: 'Create',
		value: 'create',
		action: 'Create a billing declaration',
		description:
			'Declare the billing data of a company for a month (partner applications only). An identical declaration is sent once, across executions: a repeat gets the first confirmation.',
	},
	fields: updateDisplayOptions(
		{ show: { resource: ['billingDeclaration'], operation: ['create'] } },
		properties,
	),
	// Sent once and in order: the next declaration leaves only when the one before was answered.
	oneItemAtATime: true,
	async prepare(itemIndices, connection) {
		const checks = itemIndices.map((itemIndex) => checkedDeclaration(this, itemIndex, connection));
		startBatch(this, itemIndices, checks);
	},
	async execute(itemIndex, connection) {
		const { key, confirmed } = await pendingDeclaration(this, itemIndex, connection);
		if (confirmed) return confirmed;
		const declaration = JSON.parse(key) as IDataObject;
		const asked = await askRecord(this, itemIndex, connection, declaration);
		if ('output' in asked) return recordDeclaration(this, itemIndex, key, asked.output);
		try {
			const output = await sendDeclaration(this, itemIndex, connection, declaration);
			return recordDeclaration(this, itemIndex, key, await settleSent(this, asked, output));
		} catch (error) {
			await settleFailed(this, asked, error as Error);
			throw declarationFailure(this, itemIndex, key, error as Error);
		}
	},
};
