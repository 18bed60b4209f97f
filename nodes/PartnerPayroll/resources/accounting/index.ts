import type { INodeProperties } from 'n8n-workflow';

import { operationRouting } from '../../helpers/routing';
import { companyIdFieldOf } from '../commonFields';
import { downloadCsvDescription } from './downloadCsv';
import { getEntriesDescription } from './getEntries';
import { accountingCsvPostReceive } from './hooks';

const operationSelector: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['accounting'] } },
	options: [
		{
			name: 'Download CSV',
			value: 'downloadCsv',
			action:
				'Download the accounting csv file of a month for a french company id and a month like 202610',
			description:
				'Download the accounting export of a month as a CSV file (French companies), optionally parsed into one item per line',
			routing: operationRouting({
				method: 'GET',
				belowCompany: '/accounting',
				sendsMonth: true,
				binary: true,
				country: 'FR',
				postReceive: [accountingCsvPostReceive],
			}),
		},
		{
			name: 'Get Entries',
			value: 'getEntries',
			action:
				'Get the accounting entries of a month for a french company id and a month like 202610',
			description: 'Get the accounting entries of a month, one item per entry (French companies)',
			routing: operationRouting({
				method: 'GET',
				belowCompany: '/accounting-v2',
				sendsMonth: true,
				country: 'FR',
			}),
		},
	],
	default: 'getEntries',
};

export const accountingDescription: INodeProperties[] = [
	operationSelector,
	companyIdFieldOf('accounting'),
	...getEntriesDescription,
	...downloadCsvDescription,
];
