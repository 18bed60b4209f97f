import type { INode, INodeExecutionData } from 'n8n-workflow';

import { fileNamePart, fileToItem, safeFileName } from './binary';
import { companyPath } from './company';
import type { Connection, PartnerPayrollFunctions } from './connection';
import { parameterError, type ErrorContext } from './errors';
import { apiDownload } from './transport';

// A document of the UK listings: how a reference to it is read, where it is downloaded from, its PDF.

export interface DocumentReference {
	documentId: string;
	/** Company named in a documentUrl; absent for a bare id. */
	companyId?: string;
	/** The listed path below the API base URL (a documentUrl), where the PDF is downloaded from. */
	path?: string;
}

// The listings' documentUrl shape (spec sample), below the API base URL.
const DOCUMENT_PATH = /^\/companies\/([^/]+)\/(?:contracts\/[^/]+\/)?documents\/([^/?#]+)\/?$/;

function safeDecode(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

/** The documented download path of a document id (GET_document_by_id). */
export function documentPath(companyId: string, documentId: string): string {
	return companyPath(companyId, `/documents/${encodeURIComponent(documentId)}`);
}

/**
 * Reads a document id, or a documentUrl as the listings return it (relative, or absolute on the
 * API's own host). Anything pointing elsewhere is refused, so the bearer token is never sent there.
 */
export function parseDocumentReference(
	value: string,
	apiBaseUrl: string,
	node: INode,
	itemIndex?: number,
): DocumentReference {
	const input = value.trim();
	const refuse = (reason: string) =>
		parameterError(node, `Document ID ${reason}`, {
			itemIndex,
			description:
				'Use a documentId, or a documentUrl exactly as Get Income Tax Documents or Get Auto-Enrolment Documents return it.',
		});
	if (!input) throw refuse('is empty');
	// `.` and `..` would climb out of the documents path once the URL is normalised.
	if (input === '.' || input === '..') throw refuse(`"${input}" is not a document id`);
	if (!input.includes('/')) return { documentId: input };

	let path = input;
	if (/^[a-z][a-z\d+.-]*:/i.test(input)) {
		const url = URL.canParse(input) ? new URL(input) : undefined;
		const base = new URL(apiBaseUrl);
		if (!url) throw refuse(`"${input}" is not a valid URL`);
		const basePath = base.pathname.replace(/\/+$/, '');
		if (url.origin !== base.origin || !url.pathname.startsWith(`${basePath}/`)) {
			throw refuse(
				`points outside the API base URL (${url.origin}); the token is only sent to ${base.origin}`,
			);
		}
		path = url.pathname.slice(basePath.length);
	}
	const match = DOCUMENT_PATH.exec(path);
	const documentId = match ? safeDecode(match[2]) : '';
	const climbs = path.split('/').some((segment) => ['.', '..'].includes(safeDecode(segment)));
	if (!match || climbs) {
		throw refuse(`"${input}" is not a document path of the API (/companies/<id>/…/documents/<id>)`);
	}
	return { companyId: safeDecode(match[1]), documentId, path: path.replace(/\/+$/, '') };
}

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
	return documentPath(companyId, String(documentId));
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
