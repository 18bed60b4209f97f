import type { INodeProperties } from 'n8n-workflow';

import {
	confirmBillingDeclaration,
	operationRouting,
	sendBillingDeclaration,
} from '../../helpers/hooks';
import { createFields } from './create';

export const billingDeclarationOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['billingDeclaration'] } },
	options: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a billing declaration',
			description: 'Declare the billing data of a company for a month (partner applications only)',
			routing: operationRouting({
				method: 'POST',
				path: '/companies/{companyId}/billing-declarations',
				effect: 'The billing declaration',
				preSend: [sendBillingDeclaration],
				postReceive: [confirmBillingDeclaration],
			}),
		},
	],
	default: 'create',
};

export const billingDeclarationFields: INodeProperties[] = [...createFields];
