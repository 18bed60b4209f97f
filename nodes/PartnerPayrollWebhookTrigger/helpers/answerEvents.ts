import type { IWebhookFunctions } from 'n8n-workflow';

// When n8n's answer to a delivery has left: the one signal a webhook node has that its execution exists.

/**
 * Calls `settle` once n8n's answer to the delivery left (handed over with a 2xx) or the connection
 * closed first; the function returned says whether either happened.
 */
export function settleWhenAnswered(
	context: IWebhookFunctions,
	settle: (handedOver: boolean) => void,
): () => boolean {
	const response = context.getResponseObject();
	let answered = false;
	// n8n quirk Q5: docs/n8n-quirks.md
	// n8n answers once the execution exists and static data is saved (or sends an error status).
	response.once('finish', () => {
		answered = true;
		settle(response.statusCode < 300);
	});
	response.once('close', () => {
		answered = true;
		settle(false);
	});
	return () => answered;
}
