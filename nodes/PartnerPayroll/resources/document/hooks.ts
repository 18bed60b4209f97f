import type {
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';

import { fileNamePart, fileToItem } from '../../../shared/binary';
import {
	documentPath,
	parseDocumentReference,
	pdfFile,
	withListedDocumentPdf,
	type DocumentReference,
} from '../../../shared/documents';
import { parameterError } from '../../../shared/errors';
import {
	binaryPropertyNameOf,
	companyIdOf,
	connectionOf,
	typedCompanyIdOf,
} from '../../helpers/itemValues';

async function documentReferenceOf(context: IExecuteSingleFunctions): Promise<DocumentReference> {
	const { baseUrl } = await connectionOf(context);
	return parseDocumentReference(
		String(context.getNodeParameter('documentId', '')),
		baseUrl,
		context.getNode(),
		context.getItemIndex(),
	);
}

/** The company of a document: the one its documentUrl names, else the node's company. */
async function documentCompanyIdOf(
	context: IExecuteSingleFunctions,
	reference: DocumentReference,
): Promise<string> {
	const typed = typedCompanyIdOf(context);
	if (reference.companyId === undefined) return await companyIdOf(context);
	if (typed && typed !== reference.companyId) {
		throw parameterError(
			context.getNode(),
			`Document ID is a document of company "${reference.companyId}", not of company "${typed}"`,
			{
				itemIndex: context.getItemIndex(),
				description: 'Leave Company ID empty: a documentUrl names its company.',
			},
		);
	}
	return reference.companyId;
}

/**
 * A documentUrl is downloaded from the listed path itself (the spec: "the API path from which the
 * document is downloaded"); a bare id from the documented path. A documentUrl names its company, so
 * it needs no company lookup.
 */
export async function documentPathPreSend(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const reference = await documentReferenceOf(this);
	const companyId = await documentCompanyIdOf(this, reference);
	requestOptions.url = reference.path ?? documentPath(companyId, reference.documentId);
	return requestOptions;
}

export async function documentPostReceive(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const reference = await documentReferenceOf(this);
	const companyId = await documentCompanyIdOf(this, reference);
	const { documentId } = reference;
	const expected = pdfFile(`${fileNamePart(documentId)}.pdf`);
	return [
		await fileToItem(this, response, expected, binaryPropertyNameOf(this), {
			companyId,
			documentId,
		}),
	];
}

/** Listing option "Download Files": each listed PDF joins its own item, so no loop is needed. */
export async function listedDocumentsPostReceive(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	if (!this.getNodeParameter('options.downloadFiles', false)) return items;
	const connection = await connectionOf(this);
	const companyId = await companyIdOf(this);
	const binaryPropertyName = binaryPropertyNameOf(this, 'options.binaryPropertyName');
	const withFiles: INodeExecutionData[] = [];
	// One after the other: a company's yearly documents can be many, and the rate limit is per application.
	for (const item of items) {
		withFiles.push(
			await withListedDocumentPdf(this, connection, companyId, item, binaryPropertyName, {
				itemIndex: this.getItemIndex(),
			}),
		);
	}
	return withFiles;
}
