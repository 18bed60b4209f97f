import type { INode, INodeExecutionData } from 'n8n-workflow';

import { fileNamePart, fileToItem, safeFileName } from './binary';
import { bodyBytes, isStream } from './bodies';
import type { Connection, PartnerPayrollFunctions } from './connection';
import { failureError, parameterError, type ErrorContext } from './errors';
import { checkedId, decoded, hasControlCharacter } from './ids';
import { apiRequest } from './transport';

// A document of the UK listings: how a reference to it is read, where it is downloaded from, its PDF.

export interface DocumentReference {
	documentId: string;
	/** Company named in a documentUrl; absent for a bare id. */
	companyId?: string;
	/** The listed path below the API base URL (a documentUrl), where the PDF is downloaded from. */
	path?: string;
}

// The listings' documentUrl shape (spec sample), below the API base URL.
const DOCUMENT_PATH = /^\/companies\/([^/]+)\/(?:contracts\/([^/]+)\/)?documents\/([^/?#]+)\/?$/;

/** What a document's file is: a PDF, checked by its signature. */
export function pdfFile(fileName: string) {
	return { fileName, mimeType: 'application/pdf', checkFormat: startsAsPdf };
}

const PDF_SIGNATURE = '%PDF-';

/** A sign-in page or a proxy can answer 200 too: a PDF starts with its signature. */
async function startsAsPdf(body: unknown, node: INode): Promise<void> {
	const start = await firstBytes(body, PDF_SIGNATURE.length);
	if (start.toString('latin1') !== PDF_SIGNATURE) {
		const what = `a file that does not start with ${PDF_SIGNATURE}`;
		throw failureError(node, 'notTheFile', { what });
	}
}

/**
 * The first bytes of a body without taking them from it: a stream gets what was read back
 * (`unshift`), so whoever reads it next reads every byte. Read in paused mode through 'readable',
 * never by pause(): n8n's binary store reads with a 'data' listener, which would not resume a
 * stream paused explicitly.
 */
export async function firstBytes(body: unknown, count: number): Promise<Buffer> {
	if (!isStream(body)) return (await bodyBytes(body)).subarray(0, count);
	const stream = body;
	return await new Promise<Buffer>((resolve, reject) => {
		const settle = (outcome: () => void) => {
			stream.removeListener('readable', onReadable);
			stream.removeListener('end', onEnd);
			stream.removeListener('error', onError);
			outcome();
		};
		const onReadable = () => {
			const chunk = stream.read() as Buffer | null;
			if (chunk === null) return; // wait for data, or for 'end'
			settle(() => {
				stream.unshift(chunk);
				resolve(chunk.subarray(0, count));
			});
		};
		const onEnd = () => settle(() => resolve(Buffer.alloc(0)));
		const onError = (error: unknown) => settle(() => reject(error));
		stream.on('readable', onReadable);
		stream.once('end', onEnd);
		stream.once('error', onError);
	});
}

/** The documented download path of a document id below its company (GET_document_by_id). */
export function documentPath(documentId: string): string {
	return `/documents/${encodeURIComponent(documentId)}`;
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
	// URL parsing turns a backslash into a slash: refused before, so the path cannot change under us.
	if (input.includes('\\') || hasControlCharacter(input)) {
		throw refuse(`${JSON.stringify(input)} contains a backslash or a control character`);
	}
	if (!input.includes('/')) return { documentId: checkedId(input, 'Document ID', node, itemIndex) };

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
	if (!match) {
		throw refuse(`"${input}" is not a document path of the API (/companies/<id>/…/documents/<id>)`);
	}
	// Rebuilt from decoded, checked and re-encoded segments: the listed path, never more.
	const [companyId, contractId, documentId] = [match[1], match[2], match[3]].map((segment) =>
		segment === undefined ? undefined : checkedId(decoded(segment), 'Document ID', node, itemIndex),
	);
	const contract = contractId === undefined ? '' : `/contracts/${encodeURIComponent(contractId)}`;
	return {
		companyId,
		documentId: documentId!,
		// Below the company: a request names its company apart (transport.ts builds the whole path).
		path: `${contract}/documents/${encodeURIComponent(documentId!)}`,
	};
}

/**
 * Where a listed document is downloaded from: its documentUrl ("the API path from which the
 * document is downloaded") when it is a document path of this company on the API's own host;
 * otherwise (another shape, a file host, a query, no documentUrl) the documented path of its id.
 */
function listedDocumentPath(
	context: PartnerPayrollFunctions,
	connection: Connection,
	companyId: string,
	item: INodeExecutionData,
	itemIndex?: number,
): string {
	const { documentId, documentUrl } = item.json;
	const node = context.getNode();
	if (typeof documentUrl === 'string' && documentUrl) {
		try {
			const reference = parseDocumentReference(documentUrl, connection.baseUrl, node, itemIndex);
			if (reference.path && reference.companyId === companyId) return reference.path;
		} catch {
			// A shape the spec does not show: the documented endpoint by id serves the same file.
		}
	}
	const id = String(documentId ?? '').trim();
	if (!id) {
		throw parameterError(
			node,
			'The listed document has neither a usable documentUrl nor a documentId',
			{
				itemIndex,
				description: `The listed documentUrl was ${JSON.stringify(documentUrl ?? null)}. The file is downloaded from the listed documentUrl, or from /companies/{companyId}/documents/{documentId}.`,
			},
		);
	}
	return documentPath(checkedId(id, 'The listed documentId', node, itemIndex));
}

/** A listed document's item, its fields as listed, with its PDF (named as listed) as binary data. */
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
	const file = await apiRequest(
		context,
		connection,
		{
			method: 'GET',
			companyId,
			path: listedDocumentPath(context, connection, companyId, item, errorContext.itemIndex),
			file: true,
		},
		errorContext,
		async (response) =>
			await fileToItem(context, response, pdfFile(listedName), binaryPropertyName, {}),
	);
	return { json: item.json, binary: file.binary };
}
