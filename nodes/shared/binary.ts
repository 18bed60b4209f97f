import type {
	IDataObject,
	IExecuteFunctions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { PartnerPayrollFunctions } from './connection';
import { failureError } from './errors';
import { bodyBytes, isStream } from './bodies';

/** The node's field that names the binary field a downloaded file goes to. */
export const binaryPropertyNameField: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	required: true,
	default: 'data',
	hint: 'The name of the output binary field to put the file in',
};

/** The binary field an item's downloaded file goes to (`data` when left empty). */
export const binaryPropertyNameOf = (
	context: IExecuteFunctions,
	itemIndex: number,
	parameter = binaryPropertyNameField.name,
) => String(context.getNodeParameter(parameter, itemIndex, 'data')).trim() || 'data';

/** What is known about a file before the answer arrives. */
interface ExpectedFile {
	/** Used when the answer has no Content-Disposition file name. */
	fileName: string;
	/** Used when the answer has no Content-Type, or only the generic octet-stream one. */
	mimeType: string;
	/** Checks the bytes against the file's format (a PDF's signature), after the HTML check. */
	checkFormat?: (body: unknown, node: INode) => Promise<void>;
}

const GENERIC_MIME_TYPES = ['', 'application/octet-stream', 'binary/octet-stream'];

function headerValue(response: IN8nHttpFullResponse, name: string): string {
	const value = response.headers?.[name];
	return typeof value === 'string' ? value : '';
}

const MAX_FILE_NAME_LENGTH = 200;

/**
 * A name that is safe to write anywhere a later node may put the file: the last path segment only,
 * no control characters, no leading dots (so never `.` or `..`), at most 200 characters with the
 * extension kept. Undefined when nothing usable is left.
 */
export function safeFileName(name: string): string | undefined {
	const lastSegment = name.split(/[\\/]/).pop() ?? '';
	const printable = [...lastSegment].filter((char) => char >= ' ' && char !== '\u007f').join('');
	let base = printable.replace(/^[.\s]+/, '').trim();
	if (base.length > MAX_FILE_NAME_LENGTH) {
		const extension = /\.[\w-]{1,10}$/.exec(base)?.[0] ?? '';
		base = base.slice(0, MAX_FILE_NAME_LENGTH - extension.length) + extension;
	}
	return base || undefined;
}

/** RFC 6266: `filename*=UTF-8''…` wins over `filename="…"`; either is reduced to a safe base name. */
export function fileNameFromContentDisposition(contentDisposition: string): string | undefined {
	const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(contentDisposition);
	if (extended) {
		try {
			const name = safeFileName(decodeURIComponent(extended[2].trim()));
			if (name) return name;
		} catch {
			// A badly encoded name falls through to the plain parameter.
		}
	}
	const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(contentDisposition);
	if (!plain) return undefined;
	return safeFileName(plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1].trim());
}

function mimeTypeOf(contentType: string, fallback: string): string {
	const type = contentType.split(';')[0].trim().toLowerCase();
	return GENERIC_MIME_TYPES.includes(type) ? fallback : type;
}

/**
 * The one way this package turns a file answer into an n8n item: every byte kept, a real file
 * name and MIME type, and metadata (never the bytes) on the JSON side. A streamed body goes from
 * the socket into n8n's binary store without being held here.
 */
export async function fileToItem(
	context: PartnerPayrollFunctions,
	response: IN8nHttpFullResponse,
	expected: ExpectedFile,
	binaryPropertyName: string,
	metadata: IDataObject,
): Promise<INodeExecutionData> {
	const fileName =
		fileNameFromContentDisposition(headerValue(response, 'content-disposition')) ??
		expected.fileName;
	const mimeType = mimeTypeOf(headerValue(response, 'content-type'), expected.mimeType);
	// A sign-in page or a wrong address can answer 200: stored as the file, nobody would notice.
	if (mimeType === 'text/html') {
		throw failureError(context.getNode(), 'notTheFile', { what: 'an HTML page' });
	}
	await expected.checkFormat?.(response.body, context.getNode());
	const body = isStream(response.body) ? response.body : await bodyBytes(response.body);
	const binary = await context.helpers.prepareBinaryData(body, fileName, mimeType);
	const fileSize = binary.bytes ?? (Buffer.isBuffer(body) ? body.length : undefined);
	return {
		json: { ...metadata, fileName, mimeType, fileSize },
		binary: { [binaryPropertyName]: binary },
	};
}

/** Ids become part of file names; keep them to characters every file system accepts. */
export function fileNamePart(value: string): string {
	return value.replace(/[^\w.-]+/g, '_');
}
