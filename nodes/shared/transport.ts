import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
} from 'n8n-workflow';

import { COMPANY_HINT_HEADER } from '../../credentials/companyRequests';
import type { Connection, RequestContext, RequestOptions } from './connection';
import { throwIfApiError, uncertainWriteError, unexpectedAnswerError } from './apiError';
import { failureError, type ErrorContext } from './errors';
import { isObject } from './bodies';
import { isRead, sendWithPolicy, type Sending } from './requestPolicy';

interface ApiRequest {
	method: IHttpRequestMethods;
	/** Below the company (`''` for its record), or below the API base URL (encoded), or a full URL. */
	path: string;
	/** The company the request is for; the Partner API credential sends its token (and checks it). */
	companyId?: string;
	/** The collection the company is read from: its record (`companies`, the default) or its French record. */
	companyCollection?: 'companies' | 'companies-fr';
	qs?: IDataObject;
	body?: IDataObject;
	headers?: IDataObject;
	/** A POST that only reads (introspection) may be sent again like a GET. */
	readOnly?: boolean;
	/** The authorization server: its body carries the token, so no redirect is followed at all. */
	toAuthorizationServer?: boolean;
	/** The answer is a file: it streams (see fileToItem), and its bytes are not read as JSON. */
	file?: boolean;
}

/**
 * What every request of the package carries beyond its own options: the token only to the address
 * it was sent to (n8n would add it again on a redirect to another origin), and the node's Request
 * Options (proxy, certificates), as n8n applies them to the node's own requests.
 */
function safeTransportOptions(requestOptions: RequestOptions = {}): Partial<IHttpRequestOptions> {
	const options: Partial<IHttpRequestOptions> = { sendCredentialsOnCrossOriginRedirect: false };
	if (requestOptions.allowUnauthorizedCerts) options.skipSslCertificateValidation = true;
	if (requestOptions.proxy && URL.canParse(requestOptions.proxy)) {
		const { hostname, port, protocol: scheme, username, password } = new URL(requestOptions.proxy);
		const protocol = scheme.replace(/:$/, '');
		const auth = { username: decodeURIComponent(username), password: decodeURIComponent(password) };
		options.proxy = {
			host: hostname,
			port: Number(port) || (protocol === 'https' ? 443 : 80),
			protocol,
			...(username ? { auth } : {}),
		};
	}
	return options;
}

/** The execution's cancel signal, where the context has one (a poll has none). */
export function cancelSignalOf(context: RequestContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
}

/**
 * What a success answer must be before anyone reads it. A read wants the JSON the API documents:
 * text, an empty body or `null` is never data. A write is confirmed by an empty answer or JSON;
 * an HTML page is not the API (probably not recorded), other text may be a garbled answer of the
 * API itself (may have been recorded).
 */
function checkSuccessBody(
	node: INode,
	response: IN8nHttpFullResponse,
	read: boolean,
	errorContext: ErrorContext,
): void {
	const { itemIndex } = errorContext;
	// `json: true` hands an answer that is not JSON over as text.
	const text = typeof response.body === 'string' ? response.body.trim() : undefined;
	if (read) {
		if (text) throw failureError(node, 'malformedAnswer', {}, itemIndex);
		if (!isObject(response.body) && !Array.isArray(response.body)) {
			const got = text === '' ? 'an empty body' : JSON.stringify(response.body ?? null);
			throw unexpectedAnswerError(node, response, 'a JSON object', itemIndex, got);
		}
		return;
	}
	if (text?.startsWith('<')) {
		const values = { effect: errorContext.effect, what: 'an HTML page' };
		throw failureError(node, 'writeAnswerNotApi', values, itemIndex);
	}
	if (text)
		throw uncertainWriteError(node, { reason: 'the answer could not be read' }, errorContext);
}

/** One attempt's options in n8n's `httpRequest` shape, without the attempt's timeout. */
function httpOptionsOf(connection: Connection, request: ApiRequest): IHttpRequestOptions {
	const isFullUrl = /^https?:\/\//i.test(request.path);
	// The company named to the Partner API credential: the request's own, or its connection's.
	const companyId = request.companyId ?? connection.companyId;
	const hint = connection.partner && companyId ? { [COMPANY_HINT_HEADER]: companyId } : {};
	// The one way to build a company's path: the id as one URL-encoded segment, then what is below it.
	const url =
		request.companyId === undefined
			? request.path
			: `/${request.companyCollection ?? 'companies'}/${encodeURIComponent(request.companyId)}${request.path}`;
	return {
		method: request.method,
		baseURL: isFullUrl ? undefined : connection.baseUrl,
		url,
		qs: request.qs,
		body: request.body,
		json: !request.file,
		encoding: request.file ? 'stream' : undefined,
		headers: { Accept: request.file ? '*/*' : 'application/json', ...request.headers, ...hint },
		ignoreHttpStatusErrors: true,
		returnFullResponse: true,
		disableFollowRedirect: request.toAuthorizationServer,
		...safeTransportOptions(connection.requestOptions),
	};
}

/**
 * n8n's helper that sends one attempt for this connection, with its arguments: the credential's
 * authentication applied by n8n, or the connection's token as a bearer header. The only place in
 * nodes/ that names n8n's request helpers for the service.
 */
function sendingOf(
	context: RequestContext,
	connection: Connection,
	options: IHttpRequestOptions,
): Sending {
	const { helpers } = context as IExecuteFunctions;
	if (connection.signing.by === 'credential') {
		return {
			helper: helpers.httpRequestWithAuthentication,
			thisArg: context,
			before: [connection.credentialType],
			options,
			after: [connection.alreadyRead],
		};
	}
	// Without a token (the connect link's code exchange), nothing is added.
	const headers = connection.accessToken
		? { ...options.headers, Authorization: `Bearer ${connection.accessToken}` }
		: options.headers;
	if (connection.signing.helper === 'httpRequest') {
		return { helper: helpers.httpRequest, thisArg: helpers, options: { ...options, headers } };
	}
	// A credential Test's context has only the request library's helper; its answer is read like n8n's.
	return {
		helper: helpers.request,
		thisArg: helpers,
		options: {
			method: options.method,
			uri: `${options.baseURL ?? ''}${options.url}`,
			body: options.body,
			json: true,
			headers,
			resolveWithFullResponse: true,
			simple: false,
			followRedirect: false,
			followAllRedirects: false,
		},
	};
}

/**
 * The package's one door to the service: every request of the node, the triggers, the connect link
 * and the credential Test is built here and sent under the request policy (pace, attempts,
 * timeouts); its answer goes through the one error map. `receive` turns a success into the result
 * inside the attempt, so a file whose stream is cut mid-way is fetched again like any lost answer.
 */
export async function apiRequest<T = IN8nHttpFullResponse>(
	context: RequestContext,
	connection: Connection,
	request: ApiRequest,
	errorContext: ErrorContext = {},
	receive: (response: IN8nHttpFullResponse) => Promise<T> = async (response) =>
		response as unknown as T,
): Promise<T> {
	const node = context.getNode();
	const fullContext: ErrorContext = {
		rateLimitAdvice: connection.rateLimitAdvice,
		timeoutAdvice: connection.timeoutAdvice,
		...(request.toAuthorizationServer ? { server: 'authorization' as const } : {}),
		...errorContext,
	};
	const policy = {
		node,
		method: request.method,
		idempotent: request.readOnly,
		errorContext: fullContext,
		signal: cancelSignalOf(context),
		deadline: connection.deadline,
		attemptTimeoutMs: connection.requestOptions?.timeout ?? connection.attemptTimeoutMs,
		// The authorization server is not the API: its requests follow a pace of their own.
		application: request.toAuthorizationServer
			? `${connection.application} (authorization server)`
			: connection.application,
		attempts: connection.attempts,
	};
	const sending = sendingOf(context, connection, httpOptionsOf(connection, request));
	return await sendWithPolicy(policy, sending, async (answer) => {
		// The request library's full answer, read as n8n's `httpRequest` gives it.
		const { statusCode, headers, body } = answer;
		const byRequestLibrary =
			connection.signing.by === 'bearer' && connection.signing.helper === 'request';
		const response = byRequestLibrary ? { statusCode, headers, body } : answer;
		if (request.toAuthorizationServer && response.statusCode >= 300 && response.statusCode < 400) {
			throw failureError(node, 'authorizationServerRedirect', { status: response.statusCode });
		}
		await throwIfApiError(node, response, fullContext);
		const read = request.readOnly ?? isRead(request.method);
		if (!request.file) checkSuccessBody(node, response, read, fullContext);
		return await receive(response);
	});
}
