import type { INodeProperties } from 'n8n-workflow';

import { operationRouting } from '../../helpers/routing';
import { companyIdFieldOf } from '../commonFields';
import { downloadPaymentFileDescription } from './downloadPaymentFile';
import { getStatusDescription } from './getStatus';
import { paymentFilePostReceive, payrollStatusPostReceive } from './hooks';

const operationSelector: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['payroll'] } },
	options: [
		{
			name: 'Download Payment File',
			value: 'downloadPaymentFile',
			action: 'Download the payment file of a month for a company id and a month like 202610',
			description:
				'Download the payment file (bank transfers) of a month as a binary file. It holds bank details: store it with care.',
			routing: operationRouting({
				method: 'GET',
				belowCompany: '/payment-files',
				sendsMonth: true,
				binary: true,
				postReceive: [paymentFilePostReceive],
			}),
		},
		{
			name: 'Get Status',
			value: 'getStatus',
			action: 'Get the payroll status of a month for a company id and a month like 202610',
			description:
				'Whether the payroll of a month is completed, and when its last run ended, with the company and month',
			routing: operationRouting({
				method: 'GET',
				belowCompany: '/payroll-status',
				sendsMonth: true,
				postReceive: [payrollStatusPostReceive],
			}),
		},
	],
	default: 'getStatus',
};

export const payrollDescription: INodeProperties[] = [
	operationSelector,
	companyIdFieldOf('payroll'),
	...getStatusDescription,
	...downloadPaymentFileDescription,
];
