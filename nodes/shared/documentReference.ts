import { NodeOperationError, type INode } from 'n8n-workflow';

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
		new NodeOperationError(node, `Document ID ${reason}`, {
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
