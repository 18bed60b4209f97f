import type { IDataObject, INodeExecutionData, IWebhookResponseData } from 'n8n-workflow';

// n8n saves a webhook node's static data after it created the execution, and only if the static data
// is marked changed at that moment. n8n 2.40 clears that mark while it starts the execution (it builds
// a second Workflow on the same static data), so a change made in webhook() itself is not saved. The
// one step between the execution's creation and the save that runs the node's code is n8n reading the
// answer's body, `webhookResponse` (read because the description's `responseData` is empty): the
// record is written there, once, when the execution exists. A hand-over that failed never reads it,
// so a delivery n8n did not start is never recorded.

// n8n quirk Q4: docs/n8n-quirks.md
/**
 * The result of webhook() that starts the workflow and, as n8n answers, sets each field of
 * `records()` on static data (computed then, so it holds what this process knows at that moment).
 */
export function startAndRecord(
	workflowData: INodeExecutionData[][],
	staticData: IDataObject,
	records: () => IDataObject,
	answerBody: IDataObject,
): IWebhookResponseData {
	const result: IWebhookResponseData = { workflowData };
	// Not enumerable: only n8n's read of the answer's body writes, never a copy of the result.
	Object.defineProperty(result, 'webhookResponse', {
		enumerable: false,
		get() {
			for (const [field, value] of Object.entries(records())) staticData[field] = value;
			return answerBody;
		},
	});
	return result;
}
