import type {
	IDataObject,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';

import { companyIdOf, monthOf } from '../../helpers/itemValues';
import { monthFileToItem, type MonthFileKind } from '../monthFile';

const PAYMENT_FILE: MonthFileKind = {
	namePrefix: 'payment-file',
	extension: '', // the payment file format is not documented
	mimeType: 'application/octet-stream',
};

export async function paymentFilePostReceive(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	return [await monthFileToItem(this, response, PAYMENT_FILE)];
}

/** Get Status: the month and company it answers for travel with the status. */
export async function payrollStatusPostReceive(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const body = response.body as IDataObject;
	return [
		{
			json: {
				companyId: await companyIdOf(this),
				month: monthOf(this),
				status: body.status,
				executionEndDate: body.executionEndDate ?? null,
			},
		},
	];
}
