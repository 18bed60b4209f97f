import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import {
	binaryPropertyNameField,
	binaryPropertyNameOf,
	fileNamePart,
	fileToItem,
} from '../../../shared/binary';
import type { Connection } from '../../../shared/connection';
import {
	documentPath,
	parseDocumentReference,
	pdfFile,
	type DocumentReference,
} from '../../../shared/documents';
import { parameterError } from '../../../shared/errors';
import { apiRequest } from '../../../shared/transport';
import { itemCompanyId, typedCompanyId } from '../../helpers/itemCompany';
import type { Operation } from '../resource';

const properties: INodeProperties[] = [
	{
		displayName: 'Document ID',
		name: 'documentId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.documentUrl }}',
		description:
			'A documentId, or a documentUrl exactly as the document listings return it. Only documents returned by a listing can be downloaded.',
	},
	binaryPropertyNameField,
];

/**
 * Where a document is downloaded from: its company (the one its documentUrl names, else the node's)
 * and its path below that company (the listed one, or the documented path of its id).
 */
async function documentLocation(
	context: IExecuteFunctions,
	itemIndex: number,
	connection: Connection,
	reference: DocumentReference,
): Promise<{ companyId: string; path: string }> {
	if (reference.companyId === undefined) {
		const companyId = await itemCompanyId(context, itemIndex, connection);
		return { companyId, path: documentPath(reference.documentId) };
	}
	const typed = typedCompanyId(context, itemIndex, connection);
	if (typed && typed !== reference.companyId) {
		throw parameterError(
			context.getNode(),
			`Document ID is a document of company "${reference.companyId}", not of company "${typed}"`,
			{ itemIndex, description: 'Leave Company ID empty: a documentUrl names its company.' },
		);
	}
	return { companyId: reference.companyId, path: reference.path! };
}

/**
 * GET a listed document as a PDF: a documentUrl from the listed path itself (the spec: "the API path
 * from which the document is downloaded"), a bare id from /companies/{companyId}/documents/{documentId}.
 * A documentUrl names its company, so it needs no company lookup.
 */
export const download: Operation = {
	option: {
		name: 'Download',
		value: 'download',
		action: 'Download a document',
		description: 'Download a listed UK document as a PDF file, by ID or by its documentUrl',
	},
	fields: updateDisplayOptions(
		{ show: { resource: ['document'], operation: ['download'] } },
		properties,
	),
	async execute(itemIndex, connection) {
		const reference = parseDocumentReference(
			this.getNodeParameter('documentId', itemIndex, '') as string,
			connection.baseUrl,
			this.getNode(),
			itemIndex,
		);
		const { companyId, path } = await documentLocation(this, itemIndex, connection, reference);
		const { documentId } = reference;
		const file = await apiRequest(
			this,
			connection,
			{ method: 'GET', companyId, path, file: true },
			{ itemIndex },
			async (response) =>
				await fileToItem(
					this,
					response,
					pdfFile(`${fileNamePart(documentId)}.pdf`),
					binaryPropertyNameOf(this, itemIndex),
					{ companyId, documentId },
				),
		);
		return [file];
	},
};
