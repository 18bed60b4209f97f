import { createHmac, randomBytes, timingSafeEqual } from 'crypto';

// The OAuth `state` of a connect link: what the link carries through the provider's consent page,
// signed with the partner application's client secret so that nothing needs storing, and expiring.
// Form: base64url(JSON payload) "." base64url(HMAC-SHA256 of the first part).

/** How long a connect link's consent may take, from the link's opening to the way back. */
export const STATE_LIFETIME_MS = 15 * 60 * 1000;

export interface ConnectState {
	/** Random: two openings of the link never give the same state. */
	nonce: string;
	/** Expiry, epoch ms. */
	exp: number;
	/** The label the partner put in the link (`?label=`), for the company's row. */
	label?: string;
}

const signatureOf = (payload: string, secret: string) =>
	createHmac('sha256', secret).update(payload).digest();

export function signState(label: string, secret: string, now = Date.now()): string {
	const state: ConnectState = {
		nonce: randomBytes(12).toString('base64url'),
		exp: now + STATE_LIFETIME_MS,
		...(label ? { label } : {}),
	};
	const payload = Buffer.from(JSON.stringify(state)).toString('base64url');
	return `${payload}.${signatureOf(payload, secret).toString('base64url')}`;
}

/** The state's content, or why it is refused (altered, expired, not a state of this link). */
export function verifyState(
	value: string,
	secret: string,
	now = Date.now(),
): { state: ConnectState } | { problem: string } {
	const [payload, signature, ...rest] = value.split('.');
	if (!payload || !signature || rest.length)
		return { problem: 'the state is not one of this link' };
	const expected = signatureOf(payload, secret);
	const given = Buffer.from(signature, 'base64url');
	if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
		return { problem: 'the state was altered or signed with another client secret' };
	}
	let state: ConnectState;
	try {
		state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ConnectState;
	} catch {
		return { problem: 'the state is not one of this link' };
	}
	if (typeof state.exp !== 'number' || state.exp < now) return { problem: 'the link expired' };
	return { state };
}
