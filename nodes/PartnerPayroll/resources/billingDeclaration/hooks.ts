import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';

import { parameterError } from '../../../shared/errors';
import { companyIdOf, monthOf, typedCompanyIdOf } from '../../helpers/itemValues';

interface ProductQuantity {
	productName?: string;
	quantity?: number;
	numberOfEmployees?: number;
}

/** The declaration of one item, checked locally: month, one form of products, names and amounts. */
function billingDeclarationOf(context: IExecuteSingleFunctions): IDataObject {
	const node = context.getNode();
	const itemIndex = context.getItemIndex();
	const monthOfApplication = monthOf(context, {
		name: 'monthOfApplication',
		displayName: 'Month of Application',
	});
	const quantities = context.getNodeParameter(
		'quantityByProducts.product',
		[],
	) as ProductQuantity[];
	const employees = context.getNodeParameter(
		'options.employeesByProducts.product',
		[],
	) as ProductQuantity[];
	const fail = (message: string) => parameterError(node, message, { itemIndex });

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

/** The local checks of one item (the declaration and a typed Company ID), before any request. */
export function checkDeclaration(context: IExecuteSingleFunctions): { month: string } {
	typedCompanyIdOf(context);
	return { month: String(billingDeclarationOf(context).monthOfApplication) };
}

/** What identifies a declaration within an execution: its company and everything it declares. */
export async function declarationKey(context: IExecuteSingleFunctions): Promise<IDataObject> {
	return { companyId: await companyIdOf(context), ...billingDeclarationOf(context) };
}

export async function billingDeclarationPreSend(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	requestOptions.body = billingDeclarationOf(this);
	return requestOptions;
}

/** What was declared, for the company it was declared for, with the service's own answer. */
export async function billingConfirmationPostReceive(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const serviceAnswer =
		typeof response.body === 'object' && response.body !== null ? response.body : {};
	return [{ json: { declared: true, ...(await declarationKey(this)), serviceAnswer } }];
}
