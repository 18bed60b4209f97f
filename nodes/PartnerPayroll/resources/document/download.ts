import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { fileNamePart, fileToItem } from '../../../shared/binary';
import {
	documentPath,
	parseDocumentReference,
	pdfFile,
	type DocumentReference,
} from '../../../shared/documents';
import { parameterError } from '../../../shared/errors';
import { forEachItem, type Item, type Operation } from '../../helpers/operation';
import { binaryPropertyNameField } from '../commonFields';

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

/** The company of a document: the one its documentUrl names, else the node's company. */
async function documentCompanyIdOf(item: Item, reference: DocumentReference): Promise<string> {
	const typed = item.typedCompanyId();
	if (reference.companyId === undefined) return await item.companyId();
	if (typed && typed !== reference.companyId) {
		throw parameterError(
			item.node,
			`Document ID is a document of company "${reference.companyId}", not of company "${typed}"`,
			{
				itemIndex: item.index,
				description: 'Leave Company ID empty: a documentUrl names its company.',
			},
		);
	}
	return reference.companyId;
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
	start: forEachItem(async (item) => {
		const reference = parseDocumentReference(
			item.parameter('documentId', ''),
			item.connection.baseUrl,
			item.node,
			item.index,
		);
		const companyId = await documentCompanyIdOf(item, reference);
		const { documentId } = reference;
		const path = reference.path ?? documentPath(documentId);
		const file = await item.send(
			{ method: 'GET', companyId, path, file: true },
			async (response) =>
				await fileToItem(
					item.context,
					response,
					pdfFile(`${fileNamePart(documentId)}.pdf`),
					item.binaryPropertyName(),
					{ companyId, documentId },
				),
		);
		return [file];
	}),
};
