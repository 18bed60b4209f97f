import type { IWebhookFunctions } from 'n8n-workflow';

/** The body's bytes exactly as sent: the signature covers them, not a re-serialised JSON. */
export async function rawRequestBody(context: IWebhookFunctions): Promise<Buffer> {
	const request = context.getRequestObject();
	if (!Buffer.isBuffer(request.rawBody)) await request.readRawBody();
	return Buffer.isBuffer(request.rawBody) ? request.rawBody : Buffer.alloc(0);
}
