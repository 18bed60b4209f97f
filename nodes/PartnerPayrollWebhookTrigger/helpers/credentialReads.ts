import type { ICredentialDataDecryptedObject, IWebhookFunctions } from 'n8n-workflow';

// n8n quirk Q20: docs/n8n-quirks.md
// Deliveries to one trigger node handled at the same moment share one read of a credential: each read
// costs n8n 2.40 an expression isolate, and a burst of deliveries (a month-end) would otherwise take
// one each. A read is shared only while it runs; a delivery that arrives after it ended reads again,
// so a changed credential applies from the next read on. Scoped to the workflow and the node, so n8n's
// per-project checks of a credential's use still run for every workflow.

const running = new Map<string, Promise<ICredentialDataDecryptedObject>>();

/** The id of the node's credential of `type`, as the workflow names it. */
export const credentialIdOf = (context: IWebhookFunctions, type: string): string | undefined =>
	context.getNode().credentials?.[type]?.id ?? undefined;

/** The node's credential of `type`, read by n8n, or the read another delivery of this node is running. */
export function readCredentialShared(
	context: IWebhookFunctions,
	type: string,
): Promise<ICredentialDataDecryptedObject> {
	const credentialId = credentialIdOf(context, type);
	if (!credentialId) return context.getCredentials(type);
	const key = `${context.getWorkflow().id ?? ''}:${context.getNode().id}:${type}:${credentialId}`;
	const shared = running.get(key);
	if (shared) return shared;
	const read = context.getCredentials(type);
	running.set(key, read);
	const forget = () => {
		if (running.get(key) === read) running.delete(key);
	};
	read.then(forget, forget);
	return read;
}
