import type { IWebhookFunctions } from 'n8n-workflow';

// When n8n's answer to a delivery has left: the one signal a webhook node has that its execution exists.

/**
 * Calls `settle` once n8n's answer to the delivery left: handed over (a 2xx) or not (an error status).
 * A connection closed before the answer (the sender gave up waiting) settles nothing: n8n may still
 * create the execution, so the delivery stays claimed until its claim expires, and a copy arriving
 * meanwhile is answered "retry later" instead of starting a second execution.
 */
export function settleWhenAnswered(
	context: IWebhookFunctions,
	settle: (handedOver: boolean) => void,
): void {
	const response = context.getResponseObject();
	// n8n quirk Q5: docs/n8n-quirks.md
	// n8n answers once the execution exists and static data is saved (or sends an error status).
	response.once('finish', () => settle(response.statusCode < 300));
}
