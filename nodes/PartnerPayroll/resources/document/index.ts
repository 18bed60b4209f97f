import type { INodeProperties } from 'n8n-workflow';

import {
	attachListedDocuments,
	documentToItem,
	fillDocumentPath,
	operationRouting,
} from '../../helpers/hooks';
import { downloadFields } from './download';
import { listDocumentsFields } from './listDocuments';

const listRouting = (path: string) =>
	operationRouting({
		method: 'GET',
		path,
		country: 'GB',
		postReceive: [
			{ type: 'rootProperty', properties: { property: 'documents' } },
			attachListedDocuments,
		],
	});

export const documentOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['document'] } },
	options: [
		{
			name: 'Download',
			value: 'download',
			action: 'Download a document',
			description: 'Download a listed document as a PDF file, by ID or by its documentUrl',
			routing: operationRouting({
				method: 'GET',
				path: '/companies/{companyId}/documents',
				binary: true,
				preSend: [fillDocumentPath],
				postReceive: [documentToItem],
			}),
		},
		{
			name: 'Get Auto-Enrolment Documents',
			value: 'getAutoEnrolmentDocuments',
			action: 'Get the auto enrolment documents of a company',
			description:
				'List the UK pension auto-enrolment letters, one item per document (UK companies)',
			routing: listRouting('/companies/{companyId}/auto-enrolment-documents'),
		},
		{
			name: 'Get Income Tax Documents',
			value: 'getIncomeTaxDocuments',
			action: 'Get the income tax documents of a company',
			description:
				'List the UK income tax documents (P60, P45, P11D), one item per document (UK companies)',
			routing: listRouting('/companies/{companyId}/income-taxes-documents'),
		},
	],
	default: 'getIncomeTaxDocuments',
};

export const documentFields: INodeProperties[] = [...listDocumentsFields, ...downloadFields];
