import type { IDataObject, IWebhookResponseData } from 'n8n-workflow';

// n8n saves a webhook node's static data after webhook() returned, only if the workflow's static data
// is marked changed at that moment. Newer n8n versions (2.40.7 here) build a second Workflow object on
// the same static data while starting the execution (WorkflowRunner.establishContextForPersistence),
// which clears that mark: once the workflow has static data, a change made in webhook() was then never
// saved (measured: the record kept its first delivery only). n8n reads the result's `webhookResponse`
// (the body of the answer) after it started the execution and before it saves static data, in 2.8.4 as
// in 2.40.7; reading it writes the record again, which marks the static data changed once more.
// Writing the same object again changes no value.

/** `result`, with `staticData[field] = value` written now and again when n8n reads the answer's body. */
export function withRecordSavedOnAnswer(
	result: IWebhookResponseData,
	staticData: IDataObject,
	field: string,
	value: IDataObject,
): IWebhookResponseData {
	staticData[field] = value;
	return Object.defineProperty({ ...result }, 'webhookResponse', {
		// No body of our own: n8n answers its usual {"message": "Workflow was started"}.
		get: () => {
			staticData[field] = value;
			return undefined;
		},
		enumerable: false,
	});
}
