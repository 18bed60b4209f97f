import type { IHookFunctions, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { parameterError } from '../../shared/errors';
import { isInFlight } from '../../shared/inFlight';
import { credentialIdOf } from './credentialReads';
import {
	memoryOf,
	messageAlreadyDelivered,
	readRecord,
	recordKeyOf,
	wasHandedOver,
} from './deliveries';
import { rawRequestBody } from './requestBody';
import { acknowledge } from './responses';
import { DEFAULT_TOLERANCE_SECONDS, verifySignature } from './signature';

// A copy of a message this trigger already handed to n8n (Svix's retry after a lost answer, a replay,
// the same event sent to two endpoints) starts nothing, whatever the credential holds now. Reading the
// credential in a webhook costs n8n 2.40 one more expression isolate per delivery (quirk Q20), so a
// copy is checked with the keys that verified the last delivery of this trigger in this process, kept
// in memory only. Whatever could start the workflow reads the credential anew: a secret removed from
// it never starts anything again.

/**
 * The trigger's signature tolerance (Options → Timestamp Tolerance (Seconds)). An expression can
 * give anything: a value that is not a number would turn the replay window off, so it is an error.
 */
export function toleranceOf(context: IWebhookFunctions | IHookFunctions): number {
	const value = context.getNodeParameter('options.toleranceSeconds', DEFAULT_TOLERANCE_SECONDS);
	const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 1) {
		throw parameterError(
			context.getNode(),
			'Timestamp Tolerance (Seconds) must be a number of seconds, at least 1',
			{
				description: `It is ${typeof value === 'string' ? JSON.stringify(value) : String(value)}. Leave the option out for the default, ${DEFAULT_TOLERANCE_SECONDS} seconds, which Svix's own libraries use.`,
			},
		);
	}
	return seconds;
}

const signingCredentialId = (context: IWebhookFunctions) =>
	credentialIdOf(context, 'partnerPayrollWebhookApi');

/** After a delivery verified with the credential as read now: its keys answer later copies. */
export function rememberVerifyingKeys(context: IWebhookFunctions, keys: Buffer[]): void {
	const credentialId = signingCredentialId(context);
	if (credentialId) memoryOf(context).verifiedWith = { credentialId, keys };
}

/**
 * The answer to a copy of a message already handed to n8n, signed with the remembered keys, or
 * undefined: anything else (a new message, one still being handed over, another credential, a
 * signature those keys do not match) goes the whole way, credential read.
 */
export async function answerKnownCopy(
	context: IWebhookFunctions,
): Promise<IWebhookResponseData | undefined> {
	const memory = memoryOf(context);
	const remembered = memory.verifiedWith;
	if (!remembered || remembered.credentialId !== signingCredentialId(context)) return undefined;
	const verification = verifySignature(
		context.getHeaderData(),
		await rawRequestBody(context),
		remembered.keys,
		{ toleranceSeconds: toleranceOf(context), nowSeconds: Math.floor(Date.now() / 1000) },
	);
	if (!verification.verified) return undefined;
	const { messageId } = verification;
	if (isInFlight(memory.inFlight, messageId, Date.now())) return undefined;
	const stored = readRecord(context.getWorkflowStaticData('global')[recordKeyOf(context)]);
	if (!wasHandedOver(stored, memory, messageId)) return undefined;
	return acknowledge(context, `Duplicate: ${messageAlreadyDelivered(messageId)}; nothing started`);
}
