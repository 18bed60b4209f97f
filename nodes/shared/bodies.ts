import type { BinaryHelperFunctions, IDataObject } from 'n8n-workflow';

// Answer bodies as n8n hands them over: parsed JSON, text, bytes, or a stream (`encoding: 'stream'`).

/** A plain object (not null, not an array): what a JSON answer, a body or stored state must be to be read. */
export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A streamed body: the Readable that n8n's binary store takes. */
type BodyStream = Exclude<Parameters<BinaryHelperFunctions['prepareBinaryData']>[0], Buffer>;

export function isStream(body: unknown): body is BodyStream {
	return isObject(body) && typeof body.pipe === 'function' && Symbol.asyncIterator in body;
}

/** The whole body as bytes; a streamed body is read here, once, and only up to `maxBytes`. */
export async function bodyBytes(body: unknown, maxBytes = Infinity): Promise<Buffer> {
	if (isStream(body)) {
		const chunks: Buffer[] = [];
		let size = 0;
		for await (const chunk of body) {
			chunks.push(Buffer.from(chunk));
			size += chunk.length;
			if (size >= maxBytes) break; // leaving the loop closes the stream
		}
		const bytes = Buffer.concat(chunks);
		return bytes.length > maxBytes ? bytes.subarray(0, maxBytes) : bytes;
	}
	if (Buffer.isBuffer(body)) return body;
	if (body instanceof ArrayBuffer) return Buffer.from(body);
	if (typeof body === 'string') return Buffer.from(body, 'binary');
	return Buffer.from(JSON.stringify(body ?? ''));
}
