import { createHmac, randomBytes, timingSafeEqual } from 'crypto';

// What the connect link signs, so that nothing but its key needs storing: the partner's invitation,
// the OAuth `state` carried through the provider's consent page, and the "connected" page the
// administrator lands on. Form: base64url(JSON payload) "." base64url(HMAC-SHA256 of the first part).
//
// The key is the Partner API credential's own random connect link key (never the client secret, which
// a public state would let anyone guess offline). Each purpose signs with a key derived from it, the
// purpose and the link's address (the trigger node's Production URL), and carries its type: a token of
// one purpose is never accepted as another's, nor by another node's link.

/** How long a consent may take, and how long its "connected" page can be shown again. */
export const STATE_LIFETIME_MS = 15 * 60 * 1000;

/** The link's signing key and the address it serves: what every signature is scoped to. */
export interface LinkSigner {
	/** The Partner API credential's connect link key. */
	key: string;
	/** The Connect trigger's Production URL (its redirect URI). */
	linkUrl: string;
}

/** Who the partner invites: the label of the company's row, and the company expected to consent. */
export interface Invitee {
	label: string;
	/** Absent: any company its administrator chooses on the consent page. */
	companyId?: string;
}

/** A partner's invitation, carried by the link (`?invitation=`). */
export interface Invitation extends Invitee {
	typ: 'invitation';
	/** Expiry, epoch ms. */
	exp: number;
}

/** The OAuth `state`: one consent of one browser, for the invitee (none: the open link). */
export interface ConnectState {
	typ: 'connect-state';
	/** Random: also the value of the browser's cookie, and what makes the state single-use. */
	nonce: string;
	exp: number;
	invitee?: Invitee;
}

/** What the "connected" page shows: the company and its label, never a token. */
export interface ConnectedPage {
	typ: 'connected-page';
	exp: number;
	companyId: string;
	label: string;
}

type Signed = Invitation | ConnectState | ConnectedPage;

const keyOf = (signer: LinkSigner, purpose: Signed['typ']) =>
	createHmac('sha256', signer.key)
		.update(`partner-payroll connect link\n${purpose}\n${signer.linkUrl}`)
		.digest();

function sign(content: Signed, signer: LinkSigner): string {
	const payload = Buffer.from(JSON.stringify(content)).toString('base64url');
	const signature = createHmac('sha256', keyOf(signer, content.typ)).update(payload).digest();
	return `${payload}.${signature.toString('base64url')}`;
}

/** The signed content of this purpose, or why it is refused (fixed words, to follow "the state" or "the link"). */
function verify<T extends Signed>(
	purpose: T['typ'],
	value: string,
	signer: LinkSigner,
	now: number,
): { content: T } | { problem: string } {
	const [payload, signature, ...rest] = value.split('.');
	if (!payload || !signature || rest.length) return { problem: 'is not one of this link' };
	const expected = createHmac('sha256', keyOf(signer, purpose)).update(payload).digest();
	const given = Buffer.from(signature, 'base64url');
	if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
		return { problem: 'was altered, or signed for another link' };
	}
	let content: T;
	try {
		content = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as T;
	} catch {
		return { problem: 'is not one of this link' };
	}
	if (content?.typ !== purpose) return { problem: 'is not one of this link' };
	if (typeof content.exp !== 'number' || content.exp < now) return { problem: 'expired' };
	return { content };
}

export function signInvitation(invitee: Invitee, expiresAt: number, signer: LinkSigner): string {
	return sign({ typ: 'invitation', exp: expiresAt, ...invitee }, signer);
}

export function verifyInvitation(value: string, signer: LinkSigner, now = Date.now()) {
	return verify<Invitation>('invitation', value, signer, now);
}

export function signState(
	invitee: Invitee | undefined,
	signer: LinkSigner,
	now = Date.now(),
): { state: string; nonce: string } {
	const nonce = randomBytes(16).toString('base64url');
	const content: ConnectState = {
		typ: 'connect-state',
		nonce,
		exp: now + STATE_LIFETIME_MS,
		...(invitee ? { invitee } : {}),
	};
	return { state: sign(content, signer), nonce };
}

export function verifyState(value: string, signer: LinkSigner, now = Date.now()) {
	return verify<ConnectState>('connect-state', value, signer, now);
}

export function signConnectedPage(companyId: string, label: string, signer: LinkSigner): string {
	return sign(
		{ typ: 'connected-page', exp: Date.now() + STATE_LIFETIME_MS, companyId, label },
		signer,
	);
}

export function verifyConnectedPage(value: string, signer: LinkSigner, now = Date.now()) {
	const verified = verify<ConnectedPage>('connected-page', value, signer, now);
	if ('content' in verified) {
		const { companyId, label } = verified.content;
		if (typeof companyId !== 'string' || typeof label !== 'string') {
			return { problem: 'is not one of this link' };
		}
	}
	return verified;
}
