import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestMethods,
	type IN8nHttpFullResponse,
	type IWebhookFunctions,
} from 'n8n-workflow';

import { withoutTrailingSlashes } from './connection';
import { isObject } from './bodies';

// Requests to this n8n's public API with the Partner Payroll N8n API credential (the connect link and
// Partner Credential's operations write the Partner API credential's list through it). The key, and a
// write's body (the whole company list), go to the address entered only: no redirect is followed.

export const N8N_API_CREDENTIAL = 'partnerPayrollN8nApi';

export type StoreContext = IWebhookFunctions | IExecuteFunctions;

/** n8n's public API refused or could not be reached: the partner must fix the setup. */
export class N8nApiProblem extends NodeOperationError {}

/** n8n's own words in an error answer (`message`), never a request header. */
function n8nMessage(body: unknown): string {
	const message = isObject(body) ? body.message : undefined;
	return typeof message === 'string' && message ? ` n8n said: ${message.slice(0, 200)}` : '';
}

/** Hosts that are this machine: plain http:// to them never crosses a network. */
function isLoopback(url: URL): boolean {
	const host = url.hostname.replace(/^\[|\]$/g, '');
	return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The n8n URLs already warned about in this process: one warning per address, not one per write. */
const warnedPlainHttp = new Set<string>();

/** The key (and, on a write, the list of tokens) would cross a network unencrypted: say so once per address. */
function warnOnPlainHttp(context: StoreContext, base: string): void {
	const url = new URL(base);
	if (url.protocol !== 'http:' || isLoopback(url) || warnedPlainHttp.has(base)) return;
	warnedPlainHttp.add(base);
	context.logger.warn(
		`Partner Payroll: the n8n URL of the Partner Payroll n8n API credential (${base}) is plain http:// to another host: the API key and the companies' tokens travel unencrypted. Use https://, or this n8n's loopback address (http://127.0.0.1:<port>).`,
	);
}

/**
 * The address a redirect names, as the n8n URL to enter: its `/api/v1…` tail cut off when it keeps
 * the request's path, else its origin.
 */
function redirectedBase(location: unknown, requested: string, path: string): string {
	try {
		const target = new URL(String(location ?? ''), requested);
		const tail = `/api/v1${path.split('?')[0]}`;
		const cut = target.pathname.endsWith(tail) ? target.pathname.slice(0, -tail.length) : '';
		return `${target.origin}${cut}`;
	} catch {
		return 'the address it redirects to';
	}
}

/** What to fix when n8n's public API answered `status` (300 or more), in n8n's words where it gave some. */
export function refusal(
	response: IN8nHttpFullResponse,
	request: { base: string; method: IHttpRequestMethods; path: string },
): string {
	const { base, method, path } = request;
	const status = response.statusCode;
	const route = path.split('?')[0];
	if (status >= 300 && status < 400) {
		const to = redirectedBase(response.headers?.location, `${base}/api/v1${path}`, path);
		return `${base}/api/v1${route} answered ${status}, a redirect to ${to}. Requests to n8n's API follow no redirect, so that the API key and the companies' tokens go only to the address entered: enter ${to} as the n8n URL of the Partner Payroll n8n API credential.`;
	}
	if (status === 401 || status === 403) {
		return `n8n's public API at ${base} refused the API key of the Partner Payroll n8n API credential (${status}). Create a key in Settings → n8n API, as a user who owns the Partner API credential, and paste it into that credential.${n8nMessage(response.body)}`;
	}
	if (status === 404) {
		return `n8n's public API answered 404 at ${base}/api/v1${route}: it is disabled (N8N_PUBLIC_API_DISABLED), the n8n URL is not this n8n, or the Partner API credential no longer exists.${n8nMessage(response.body)}`;
	}
	return `n8n's public API answered ${status} to ${method} ${route}.${n8nMessage(response.body)}`;
}

/**
 * One request to n8n's public API with the n8n API credential, whatever its status. A redirect is not
 * followed: n8n's request helper would send the key header (and a 307/308 the body, the whole company
 * list) to whatever address it names.
 */
export async function n8nApiResponse(
	context: StoreContext,
	method: IHttpRequestMethods,
	path: string,
	body?: IDataObject,
): Promise<IN8nHttpFullResponse & { base: string }> {
	const node = context.getNode();
	const credentials = await context.getCredentials(N8N_API_CREDENTIAL);
	const base = withoutTrailingSlashes(credentials.url);
	if (!URL.canParse(base)) {
		throw new N8nApiProblem(
			node,
			`The n8n URL of the Partner Payroll n8n API credential ("${base}") is not a URL. Enter this n8n's address, such as https://n8n.example.com.`,
		);
	}
	warnOnPlainHttp(context, base);
	let response: IN8nHttpFullResponse | undefined;
	let unreachable = '';
	try {
		response = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			N8N_API_CREDENTIAL,
			{
				method,
				url: `${base}/api/v1${path}`,
				body,
				json: true,
				timeout: 20_000,
				ignoreHttpStatusErrors: true,
				returnFullResponse: true,
				disableFollowRedirect: true,
			},
		)) as IN8nHttpFullResponse;
	} catch (error) {
		const cause = (error as { cause?: { code?: string }; code?: string }) ?? {};
		unreachable = cause.code ?? cause.cause?.code ?? 'no answer';
	}
	if (response === undefined) {
		throw new N8nApiProblem(
			node,
			`n8n's public API could not be reached at ${base}/api/v1 (${unreachable}). Check the n8n URL of the Partner Payroll n8n API credential: the address at which this n8n reaches itself.`,
		);
	}
	return { ...response, base };
}

/**
 * One request to n8n's public API with the n8n API credential: a status of 300 or more that `accept`
 * does not list is a refusal, thrown as what to fix.
 */
export async function n8nApiRequest(
	context: StoreContext,
	method: IHttpRequestMethods,
	path: string,
	body?: IDataObject,
	accept: number[] = [],
): Promise<IN8nHttpFullResponse> {
	const response = await n8nApiResponse(context, method, path, body);
	if (response.statusCode >= 300 && !accept.includes(response.statusCode)) {
		throw new N8nApiProblem(
			context.getNode(),
			refusal(response, { base: response.base, method, path }),
		);
	}
	return response;
}
