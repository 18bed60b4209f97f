import type { INodeExecutionData } from 'n8n-workflow';

import { fileNamePart, fileToItem } from './binary';
import type { Connection, PartnerPayrollFunctions } from './credentials';
import type { ErrorContext } from './errors';
import { apiRequest, companyPath } from './transport';

/**
 * A listed document's item with its PDF added as binary data, named as the listing names it.
 * The listing's fields stay as they are.
 */
export async function withListedDocumentPdf(
	context: PartnerPayrollFunctions,
	connection: Connection,
	companyId: string,
	item: INodeExecutionData,
	binaryPropertyName: string,
	errorContext: ErrorContext = {},
): Promise<INodeExecutionData> {
	const documentId = String(item.json.documentId);
	const response = await apiRequest(
		context,
		connection,
		{
			method: 'GET',
			path: companyPath(companyId, `/documents/${encodeURIComponent(documentId)}`),
			binary: true,
		},
		errorContext,
	);
	const { name } = item.json;
	const listedName = typeof name === 'string' && name ? name : `${documentId}.pdf`;
	const file = await fileToItem(
		context,
		response,
		{ fileName: fileNamePart(listedName), mimeType: 'application/pdf' },
		binaryPropertyName,
		{},
	);
	return { json: item.json, binary: file.binary };
}
