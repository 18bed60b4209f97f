import { createHmac, randomBytes, timingSafeEqual } from 'crypto';

// What the connect link signs with the partner application's client secret, so that nothing needs
// storing: the OAuth `state` carried through the provider's consent page, and the "connected" page
// the administrator lands on. Form: base64url(JSON payload) "." base64url(HMAC-SHA256 of the first part).

/** How long a connect link's consent may take, and how long its "connected" page can be shown again. */
export const STATE_LIFETIME_MS = 15 * 60 * 1000;

export interface ConnectState {
	/** Random: two openings of the link never give the same state. */
	nonce: string;
	/** Expiry, epoch ms. */
	exp: number;
	/** The label the partner put in the link (`?label=`), for the company's row. */
	label?: string;
}

/** What the "connected" page shows: the company and its label, never a token. */
export interface ConnectedPage {
	exp: number;
	companyId: string;
	label: string;
}

const signatureOf = (payload: string, secret: string) =>
	createHmac('sha256', secret).update(payload).digest();

function sign(content: object, secret: string): string {
	const payload = Buffer.from(JSON.stringify(content)).toString('base64url');
	return `${payload}.${signatureOf(payload, secret).toString('base64url')}`;
}

/** The signed content, or why it is refused (altered, expired, not signed by this link). */
function verify<T extends { exp: number }>(
	value: string,
	secret: string,
	now: number,
): { content: T } | { problem: string } {
	const [payload, signature, ...rest] = value.split('.');
	if (!payload || !signature || rest.length)
		return { problem: 'the state is not one of this link' };
	const expected = signatureOf(payload, secret);
	const given = Buffer.from(signature, 'base64url');
	if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
		return { problem: 'the state was altered or signed with another client secret' };
	}
	let content: T;
	try {
		content = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as T;
	} catch {
		return { problem: 'the state is not one of this link' };
	}
	if (typeof content.exp !== 'number' || content.exp < now) return { problem: 'the link expired' };
	return { content };
}

export function signState(label: string, secret: string, now = Date.now()): string {
	const state: ConnectState = {
		nonce: randomBytes(12).toString('base64url'),
		exp: now + STATE_LIFETIME_MS,
		...(label ? { label } : {}),
	};
	return sign(state, secret);
}

export function verifyState(
	value: string,
	secret: string,
	now = Date.now(),
): { state: ConnectState } | { problem: string } {
	const verified = verify<ConnectState>(value, secret, now);
	return 'content' in verified ? { state: verified.content } : verified;
}

export function signConnectedPage(companyId: string, label: string, secret: string): string {
	return sign({ exp: Date.now() + STATE_LIFETIME_MS, companyId, label }, secret);
}

export function verifyConnectedPage(
	value: string,
	secret: string,
): { page: ConnectedPage } | { problem: string } {
	const verified = verify<ConnectedPage>(value, secret, Date.now());
	return 'content' in verified ? { page: verified.content } : verified;
}
