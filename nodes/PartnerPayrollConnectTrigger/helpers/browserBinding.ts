import { createHash } from 'crypto';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { STATE_LIFETIME_MS } from '../../shared/linkSigning';

// A state serves the browser that opened the link, and one code (RFC 9700 4.7): the browser holds
// the state's nonce in a cookie of the link's own path, and this process remembers every state that
// came back with a code until it expires. After a code, the cookie says the state was used, so a
// reload of the way back in that browser is never exchanged again, even after n8n restarts.

const COOKIE = 'pp_connect';

const usedMark = (nonce: string) => `${nonce}.used`;

function setCookie(context: IWebhookFunctions, value: string, linkUrl: string): void {
	const { pathname, protocol } = new URL(linkUrl);
	const attributes = [
		`${COOKIE}=${value}`,
		`Path=${pathname}`,
		`Max-Age=${STATE_LIFETIME_MS / 1000}`,
		'HttpOnly',
		'SameSite=Lax',
		...(protocol === 'https:' ? ['Secure'] : []),
	];
	context.getResponseObject().setHeader('Set-Cookie', attributes.join('; '));
}

/** The cookie that binds a new state to the browser about to be sent to the consent page. */
export function bindToBrowser(context: IWebhookFunctions, nonce: string, linkUrl: string): void {
	setCookie(context, nonce, linkUrl);
}

/** The browser's cookie of the link, as sent (a repeated one counts as none). */
function cookieOf(context: IWebhookFunctions): string {
	const header = (context.getHeaderData() as IDataObject).cookie;
	const values = String(typeof header === 'string' ? header : '')
		.split(';')
		.map((pair) => pair.trim())
		.filter((pair) => pair.startsWith(`${COOKIE}=`))
		.map((pair) => pair.slice(COOKIE.length + 1));
	return values.length === 1 ? values[0] : '';
}

/** A used code is kept as its hash: enough to recognise a reload of the same address. */
const hashOf = (code: string) => createHash('sha256').update(code).digest('base64url');

interface UsedState {
	exp: number;
	code: string;
	/** The "connected" page of a state that connected its company. */
	connectedPage?: string;
}

const usedStates = new Map<string, UsedState>();

/** How a way back with a code stands with the browser and this process. */
export type Binding =
	| { fresh: true }
	| { fresh: false; reopened: boolean; connectedPage?: string }
	| { otherBrowser: true };

export function bindingOf(context: IWebhookFunctions, nonce: string, code: string): Binding {
	const cookie = cookieOf(context);
	const used = usedStates.get(nonce);
	if (used || cookie === usedMark(nonce)) {
		// Only the browser that used the state, with the same code, sees its "connected" page again.
		const reopened = cookie === usedMark(nonce) && used?.code === hashOf(code);
		return { fresh: false, reopened, ...(reopened ? { connectedPage: used?.connectedPage } : {}) };
	}
	return cookie === nonce ? { fresh: true } : { otherBrowser: true };
}

/** The state has come back with a code: it serves no other, in this process or this browser. */
export function useState(
	context: IWebhookFunctions,
	state: { nonce: string; exp: number },
	code: string,
	linkUrl: string,
): void {
	const now = Date.now();
	for (const [nonce, used] of usedStates) if (used.exp < now) usedStates.delete(nonce);
	usedStates.set(state.nonce, { exp: state.exp, code: hashOf(code) });
	setCookie(context, usedMark(state.nonce), linkUrl);
}

/** The state's company was connected: a reload shows its "connected" page. */
export function rememberConnected(nonce: string, connectedPage: string): void {
	const used = usedStates.get(nonce);
	if (used) used.connectedPage = connectedPage;
}
