import type { INodeProperties } from 'n8n-workflow';

import { operationRouting } from '../../helpers/routing';
import { companyIdFieldOf } from '../commonFields';
import { downloadDescription } from './download';
import { documentPathPreSend, documentPostReceive, listedDocumentsPostReceive } from './hooks';
import { listingsDescription } from './listings';

const listingRouting = (belowCompany: string) =>
	operationRouting({
		method: 'GET',
		belowCompany,
		country: 'GB',
		postReceive: [
			{ type: 'rootProperty', properties: { property: 'documents' } },
			listedDocumentsPostReceive,
		],
	});

const operationSelector: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['document'] } },
	options: [
		{
			name: 'Download',
			value: 'download',
			action: 'Download a uk document as a pdf by its document id or url and get its name and size',
			description: 'Download a listed document as a PDF file, by ID or by its documentUrl',
			routing: operationRouting({
				method: 'GET',
				binary: true,
				preSend: [documentPathPreSend],
				postReceive: [documentPostReceive],
			}),
		},
		{
			name: 'Get Auto-Enrolment Documents',
			value: 'getAutoEnrolmentDocuments',
			action: 'Get the auto enrolment documents of a uk company with their document ids and urls',
			description:
				'List the UK pension auto-enrolment letters, one item per document (UK companies)',
			routing: listingRouting('/auto-enrolment-documents'),
		},
		{
			name: 'Get Income Tax Documents',
			value: 'getIncomeTaxDocuments',
			action:
				'Get the income tax documents p60 p45 and p11d of a uk company with their document ids and urls',
			description:
				'List the UK income tax documents (P60, P45, P11D), one item per document (UK companies)',
			routing: listingRouting('/income-taxes-documents'),
		},
	],
	default: 'getIncomeTaxDocuments',
};

export const documentDescription: INodeProperties[] = [
	operationSelector,
	companyIdFieldOf('document'),
	...listingsDescription,
	...downloadDescription,
];
