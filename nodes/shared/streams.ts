// Answer bodies as n8n hands them over: parsed JSON, text, bytes, or a stream (`encoding: 'stream'`).

interface BodyStream extends AsyncIterable<Buffer> {
	pipe: unknown;
	read(): unknown;
	unshift(chunk: Buffer): void;
	on(event: string, listener: (...args: unknown[]) => void): unknown;
	once(event: string, listener: (...args: unknown[]) => void): unknown;
	removeListener(event: string, listener: (...args: unknown[]) => void): unknown;
}

export function isStream(body: unknown): body is BodyStream {
	return (
		typeof body === 'object' &&
		body !== null &&
		typeof (body as { pipe?: unknown }).pipe === 'function' &&
		Symbol.asyncIterator in body
	);
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
		const onReadable = () => {
			const chunk = stream.read() as Buffer | null;
			if (chunk === null) return; // wait for data, or for 'end'
			cleanUp();
			stream.unshift(chunk);
			resolve(chunk.subarray(0, count));
		};
		const onEnd = () => {
			cleanUp();
			resolve(Buffer.alloc(0));
		};
		const onError = (error: unknown) => {
			cleanUp();
			reject(error);
		};
		const cleanUp = () => {
			stream.removeListener('readable', onReadable);
			stream.removeListener('end', onEnd);
			stream.removeListener('error', onError);
		};
		stream.on('readable', onReadable);
		stream.once('end', onEnd);
		stream.once('error', onError);
	});
}
