import { createHmac, timingSafeEqual } from 'crypto';

// Svix's signature scheme (also Standard Webhooks'): HMAC-SHA256 of `${id}.${timestamp}.${body}`,
// keyed by the base64-decoded secret after "whsec_". The signature header lists space-separated
// `v1,<base64>` entries: several during a secret rotation, other versions to be skipped.

export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Svix's own header names first, then the brandless Standard Webhooks ones. */
const HEADER_FAMILIES = ['svix', 'webhook'] as const;

/** Request headers as Node gives them (lower-case names). */
export type RequestHeaders = Record<string, string | string[] | undefined>;

export type Verification =
	| { verified: true; messageId: string; timestamp: number }
	| { verified: false; reason: string };

function header(headers: RequestHeaders, name: string): string {
	const value = headers[name];
	return (Array.isArray(value) ? value[0] : (value ?? '')).trim();
}

function signedContent(id: string, timestamp: string, body: Buffer): Buffer {
	return Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), body]);
}

/** The `v1` signatures of the header, decoded; entries of other versions are skipped. */
function v1Signatures(signatureHeader: string): Buffer[] {
	return signatureHeader
		.split(' ')
		.filter((entry) => entry.startsWith('v1,'))
		.map((entry) => Buffer.from(entry.slice(3), 'base64'));
}

/**
 * Whether the raw body was signed by one of the keys, at a time within `toleranceSeconds` of
 * `nowSeconds` (past or future). Every key is compared with every signature in constant time.
 * The reason of a refusal names what failed, never a key or a signature.
 */
export function verifySignature(
	headers: RequestHeaders,
	body: Buffer,
	keys: Buffer[],
	options: { toleranceSeconds: number; nowSeconds: number },
): Verification {
	const family = HEADER_FAMILIES.find((prefix) => header(headers, `${prefix}-id`)) ?? 'svix';
	const id = header(headers, `${family}-id`);
	const timestampText = header(headers, `${family}-timestamp`);
	const signatureHeader = header(headers, `${family}-signature`);
	const missing = [
		[id, 'id'],
		[timestampText, 'timestamp'],
		[signatureHeader, 'signature'],
	]
		.filter(([value]) => !value)
		.map(([, name]) => `${family}-${name}`);
	if (missing.length) {
		return { verified: false, reason: `missing header ${missing.join(', ')}` };
	}
	if (!/^\d{1,12}$/.test(timestampText)) {
		return { verified: false, reason: `${family}-timestamp is not a number of seconds` };
	}
	const timestamp = Number(timestampText);
	const drift = timestamp - options.nowSeconds;
	if (Math.abs(drift) > options.toleranceSeconds) {
		const direction = drift < 0 ? 'old' : 'in the future';
		return {
			verified: false,
			reason: `timestamp ${Math.abs(drift)} s ${direction}, more than the ${options.toleranceSeconds} s tolerated`,
		};
	}
	const signatures = v1Signatures(signatureHeader);
	const content = signedContent(id, timestampText, body);
	const matches = keys.some((key) => {
		const expected = createHmac('sha256', key).update(content).digest();
		return signatures.some(
			(signature) => signature.length === expected.length && timingSafeEqual(signature, expected),
		);
	});
	return matches
		? { verified: true, messageId: id, timestamp }
		: { verified: false, reason: 'no signature matches a configured secret' };
}
