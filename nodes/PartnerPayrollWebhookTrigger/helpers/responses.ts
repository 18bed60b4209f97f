import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

/** What starts every log line of the webhook trigger. */
export const LOG_PREFIX = 'Partner Payroll Webhook Trigger:';

// Every answer that starts no execution. What the sender (Svix) does with it:
// - 2xx: delivered, never retried;
// - 401, 409, 503: failed, retried with the same message id (5 s, 5 min, 30 min, 2 h, ...);
// - 400 with `webhook-delivery: abort-message`: failed, never retried (nothing would change).

export type Refusal = 'badSignature' | 'unreadableBody' | 'inFlight' | 'notConnected';

const REFUSALS: Record<Refusal, { status: number; headers?: Record<string, string> }> = {
	badSignature: { status: 401 },
	unreadableBody: { status: 400, headers: { 'webhook-delivery': 'abort-message' } },
	// Retry-After is advisory for Svix (its schedule wins); other senders may honour it.
	inFlight: { status: 409, headers: { 'Retry-After': '5' } },
	// Svix retries for about 28 hours: the run starts once the company is connected within that time.
	notConnected: { status: 409 },
};

function send(
	context: IWebhookFunctions,
	status: number,
	message: string,
	headers: Record<string, string> = {},
): IWebhookResponseData {
	const res = context.getResponseObject();
	for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
	res.status(status).json({ message });
	return { noWebhookResponse: true };
}

/** A refusal: the sender's delivery failed, and it retries unless the answer says not to. */
export function refuse(
	context: IWebhookFunctions,
	refusal: Refusal,
	message: string,
): IWebhookResponseData {
	const { status, headers } = REFUSALS[refusal];
	return send(context, status, message, headers);
}

/** Delivered, and nothing to start: a filtered-out event, or a duplicate already handed to n8n. */
export function acknowledge(context: IWebhookFunctions, message: string): IWebhookResponseData {
	return send(context, 200, message);
}
