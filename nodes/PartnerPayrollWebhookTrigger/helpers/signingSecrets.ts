import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

// A Svix (and Standard Webhooks) signing secret: "whsec_" then the key in base64. The key is what
// signs; the prefix only names the scheme. Svix keys are 24 bytes, Standard Webhooks allows 24 to 64.
const SECRET_PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const MIN_KEY_BYTES = 16;
const MAX_KEY_BYTES = 64;

// n8n's editor shows a password field on one line even with `rows`, and the browser drops the line
// feeds of what is pasted into it: secrets pasted one per line arrive run together. A secret holds
// neither whitespace nor a comma, nor any "_" after its prefix (standard base64 has none, and BASE64
// refuses one), so each of these, and the start of each "whsec_", separates secrets unambiguously.
const SEPARATORS = /[\s,]+/;
const BEFORE_EACH_PREFIX = /(?=whsec_)/;

/** The credential field a secret came from, and its position among that field's secrets. */
export interface SecretSource {
	field: 'Signing Secret' | 'Additional Signing Secrets';
	position?: number;
}

export type SigningKeys = { keys: Buffer[] } | { problem: string };

/** Why a secret is not usable, naming where it is but never showing it; undefined when it is usable. */
function shapeProblem(secret: string, source: SecretSource): string | undefined {
	const where =
		source.position === undefined ? source.field : `${source.field}, secret ${source.position}`;
	if (!secret.startsWith(SECRET_PREFIX)) {
		return `${where} must start with "whsec_", as the webhook portal shows it (copy the whole secret)`;
	}
	const base64 = secret.slice(SECRET_PREFIX.length);
	const bytes = BASE64.test(base64) ? Buffer.from(base64, 'base64').length : 0;
	if (bytes < MIN_KEY_BYTES || bytes > MAX_KEY_BYTES) {
		return `${where} must be "whsec_" followed by a base64 key of ${MIN_KEY_BYTES} to ${MAX_KEY_BYTES} bytes, as the webhook portal shows it (the pasted value is cut or has extra characters)`;
	}
	return undefined;
}

/** The secrets of Additional Signing Secrets, in the order they were pasted. */
function additionalSecrets(value: unknown): string[] {
	return String(value ?? '')
		.split(SEPARATORS)
		.flatMap((part) => part.split(BEFORE_EACH_PREFIX))
		.filter((secret) => secret !== '');
}

/** Every configured secret as an HMAC key, or the first shape problem found. */
export function signingKeys(credentials: ICredentialDataDecryptedObject): SigningKeys {
	const main = String(credentials.signingSecret ?? '').trim();
	if (!main)
		return { problem: 'Signing Secret is empty: paste the whsec_... secret of the endpoint' };
	const secrets: Array<[string, SecretSource]> = [[main, { field: 'Signing Secret' }]];
	additionalSecrets(credentials.additionalSigningSecrets).forEach((secret, index) => {
		secrets.push([secret, { field: 'Additional Signing Secrets', position: index + 1 }]);
	});
	for (const [secret, source] of secrets) {
		const problem = shapeProblem(secret, source);
		if (problem) return { problem };
	}
	return {
		keys: secrets.map(([secret]) => Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')),
	};
}
