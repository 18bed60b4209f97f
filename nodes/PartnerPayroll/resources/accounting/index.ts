import type { INodeProperties } from 'n8n-workflow';

import { accountingCsvToItems, operationRouting, sendMonthAsDate } from '../../helpers/hooks';
import { downloadCsvFields } from './downloadCsv';
import { getEntriesFields } from './getEntries';

export const accountingOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['accounting'] } },
	options: [
		{
			name: 'Download CSV',
			value: 'downloadCsv',
			action: 'Download the accounting CSV file of a month',
			description:
				'Download the accounting export of a month as a CSV file (French companies), optionally parsed into one item per line',
			routing: operationRouting({
				method: 'GET',
				path: '/companies/{companyId}/accounting',
				binary: true,
				country: 'FR',
				preSend: [sendMonthAsDate],
				postReceive: [accountingCsvToItems],
			}),
		},
		{
			name: 'Get Entries',
			value: 'getEntries',
			action: 'Get the accounting entries of a month',
			description: 'Get the accounting entries of a month, one item per entry (French companies)',
			routing: operationRouting({
				method: 'GET',
				path: '/companies/{companyId}/accounting-v2',
				country: 'FR',
				preSend: [sendMonthAsDate],
			}),
		},
	],
	default: 'getEntries',
};

export const accountingFields: INodeProperties[] = [...getEntriesFields, ...downloadCsvFields];
