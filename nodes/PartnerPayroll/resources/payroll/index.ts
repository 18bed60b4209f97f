import type { INodeProperties } from 'n8n-workflow';

import {
	operationRouting,
	paymentFileToItem,
	payrollStatusToItem,
	sendMonthAsDate,
} from '../../helpers/hooks';
import { downloadPaymentFileFields } from './downloadPaymentFile';
import { getStatusFields } from './getStatus';

export const payrollOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['payroll'] } },
	options: [
		{
			name: 'Download Payment File',
			value: 'downloadPaymentFile',
			action: 'Download the payment file of a month',
			description:
				'Download the payment file (bank transfers) of a month as a binary file. It holds bank details: store it with care.',
			routing: operationRouting({
				method: 'GET',
				path: '/companies/{companyId}/payment-files',
				binary: true,
				preSend: [sendMonthAsDate],
				postReceive: [paymentFileToItem],
			}),
		},
		{
			name: 'Get Status',
			value: 'getStatus',
			action: 'Get the payroll status of a month',
			description:
				'Whether the payroll of a month is completed, and when its last run ended, with the company and month',
			routing: operationRouting({
				method: 'GET',
				path: '/companies/{companyId}/payroll-status',
				preSend: [sendMonthAsDate],
				postReceive: [payrollStatusToItem],
			}),
		},
	],
	default: 'getStatus',
};

export const payrollFields: INodeProperties[] = [...getStatusFields, ...downloadPaymentFileFields];
