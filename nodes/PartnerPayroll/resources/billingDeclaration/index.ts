import type { INodeProperties } from 'n8n-workflow';

import { operationRouting } from '../../helpers/routing';
import { companyIdFieldOf } from '../commonFields';
import { createDescription } from './create';
import {
	billingConfirmationPostReceive,
	billingDeclarationPreSend,
	checkDeclaration,
	declarationKey,
} from './hooks';
import { declarationSendGuard } from './ledger';

const operationSelector: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['billingDeclaration'] } },
	options: [
		{
			name: 'Create',
			value: 'create',
			action:
				'Create and record a billing declaration for a company id and a month like 202610 on every call',
			description: 'Declare the billing data of a company for a month (partner applications only)',
			routing: operationRouting({
				method: 'POST',
				belowCompany: '/billing-declarations',
				effect: 'The billing declaration',
				preSend: [billingDeclarationPreSend],
				postReceive: [billingConfirmationPostReceive],
				sendGuard: declarationSendGuard({ check: checkDeclaration, key: declarationKey }),
			}),
		},
	],
	default: 'create',
};

export const billingDeclarationDescription: INodeProperties[] = [
	operationSelector,
	companyIdFieldOf('billingDeclaration'),
	...createDescription,
];
