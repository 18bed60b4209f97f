import type { INodeExecutionData } from 'n8n-workflow';

import { fileNamePart, fileToItem, safeFileName } from './binary';
import type { Connection, PartnerPayrollFunctions } from './credentials';
import { parseDocumentReference } from './documentReference';
import type { ErrorContext } from './errors';
import { apiDownload, companyPath } from './transport';

/**
 * Where a listed document is downloaded from: its documentUrl ("the API path from which the
 * document is downloaded"), once checked to be a document of this company on the API's own host;
 * the documented path built from its id when the listing gave no documentUrl.
 */
function listedDocumentPath(
	context: PartnerPayrollFunctions,
	connection: Connection,
	companyId: string,
	item: INodeExecutionData,
	itemIndex?: number,
): string {
	const { documentId, documentUrl } = item.json;
	if (typeof documentUrl === 'string' && documentUrl) {
		const reference = parseDocumentReference(
			documentUrl,
			connection.baseUrl,
			context.getNode(),
			itemIndex,
		);
		if (reference.path && reference.companyId === companyId) return reference.path;
	}
	return companyPath(companyId, `/documents/${encodeURIComponent(String(documentId))}`);
}

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
	const { name } = item.json;
	const listedName =
		(typeof name === 'string' && safeFileName(name)) || `${fileNamePart(documentId)}.pdf`;
	const file = await apiDownload(
		context,
		connection,
		{
			method: 'GET',
			path: listedDocumentPath(context, connection, companyId, item, errorContext.itemIndex),
		},
		errorContext,
		async (response) =>
			await fileToItem(
				context,
				response,
				{ fileName: listedName, mimeType: 'application/pdf' },
				binaryPropertyName,
				{},
			),
	);
	return { json: item.json, binary: file.binary };
}
