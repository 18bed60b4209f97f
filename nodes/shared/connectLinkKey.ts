import { randomBytes } from 'crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import {
	PARTNER_CREDENTIAL,
	partnerCredentialId,
	patchPartnerCredential,
	underCredentialLock,
} from './credentialStore';
import { N8nApiProblem, type StoreContext } from './n8nApi';

// The connect link's signing key: 256 random bits of the package's own, in a password field of
// the Partner API credential. It is stored encrypted with the client secret and the tokens, masked by
// n8n's API and editor, and never in a workflow, its static data, an item or a log. It is created at
// its first use, through n8n's public API, as the company list is written.

const FIELD = 'connectLinkSecret';

/** The stored key; undefined before its first use (then nothing signed for the link can be valid). */
export function storedLinkKey(partner: ICredentialDataDecryptedObject): string | undefined {
	const key = partner[FIELD];
	return typeof key === 'string' && key.length >= 43 ? key : undefined;
}

/** The stored key, created and written first when there is none. */
export async function linkKey(
	context: StoreContext,
	partner: ICredentialDataDecryptedObject,
): Promise<string> {
	const stored = storedLinkKey(partner);
	if (stored) return stored;
	return await underCredentialLock(partnerCredentialId(context), async () => {
		const current = await context.getCredentials(PARTNER_CREDENTIAL);
		const existing = storedLinkKey(current);
		if (existing) return existing;
		await patchPartnerCredential(context, current, {
			[FIELD]: randomBytes(32).toString('base64url'),
		});
		// Another n8n process may have written its own key at the same moment: the stored one counts.
		const written = storedLinkKey(await context.getCredentials(PARTNER_CREDENTIAL));
		if (!written) {
			throw new N8nApiProblem(
				context.getNode(),
				"The connect link's signing key was written to the Partner API credential but read back without it. Do it again.",
			);
		}
		return written;
	});
}
