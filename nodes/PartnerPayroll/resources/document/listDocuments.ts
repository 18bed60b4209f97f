import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { binaryPropertyNameOf } from '../../../shared/binary';
import { withListedDocumentPdf } from '../../../shared/documents';
import type { ErrorContext } from '../../../shared/errors';
import { apiRequest } from '../../../shared/transport';
import { asItems, listAnswer } from '../../helpers/answers';
import { itemCompanyId } from '../../helpers/itemCompany';
import { optionsField, type Operation } from '../resource';

const errorContext: ErrorContext = { country: 'GB' };

// The fields of both listings: Download Files and where each PDF goes.
const properties: INodeProperties[] = [
	optionsField([
		{
			displayName: 'Download Files',
			name: 'downloadFiles',
			type: 'boolean',
			default: false,
			description: 'Whether to download each listed PDF into its item as a binary file',
		},
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			hint: 'The name of the output binary field to put each PDF in (with Download Files)',
		},
	]),
];

/**
 * GET /companies/{companyId}/<listing>: one item per document (UK companies). With Download Files
 * each listed PDF joins its own item, one after the other (the rate limit is per application).
 */
function listDocuments(path: string, option: Operation['option']): Operation {
	return {
		option,
		fields: updateDisplayOptions(
			{ show: { resource: ['document'], operation: [String(option.value)] } },
			properties,
		),
		async execute(itemIndex, connection) {
			const companyId = await itemCompanyId(this, itemIndex, connection);
			const response = await apiRequest(
				this,
				connection,
				{ method: 'GET', companyId, path },
				{ ...errorContext, itemIndex },
			);
			const listed = asItems(listAnswer(this, itemIndex, response, 'documents'));
			if (!this.getNodeParameter('options.downloadFiles', itemIndex, false)) return listed;
			const binaryPropertyName = binaryPropertyNameOf(
				this,
				itemIndex,
				'options.binaryPropertyName',
			);
			const withFiles = [];
			for (const document of listed) {
				withFiles.push(
					await withListedDocumentPdf(this, connection, companyId, document, binaryPropertyName, {
						...errorContext,
						itemIndex,
					}),
				);
			}
			return withFiles;
		},
	};
}

export const getIncomeTaxDocuments = listDocuments('/income-taxes-documents', {
	name: 'Get Income Tax Documents',
	value: 'getIncomeTaxDocuments',
	action: 'Get UK income tax documents',
	description:
		'List the UK income tax documents (P60, P45, P11D), one item per document (UK companies)',
});

export const getAutoEnrolmentDocuments = listDocuments('/auto-enrolment-documents', {
	name: 'Get Auto-Enrolment Documents',
	value: 'getAutoEnrolmentDocuments',
	action: 'Get UK auto-enrolment documents',
	description: 'List the UK pension auto-enrolment letters, one item per document (UK companies)',
});
