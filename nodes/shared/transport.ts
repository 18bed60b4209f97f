import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import type { Connection, RequestContext, RequestOptions } from './connection';
import { throwIfApiError, uncertainWriteError, unexpectedAnswerError } from './apiError';
import { failureError, type ErrorContext } from './errors';
import { isObject } from './objects';
import { isRead, kindOf, processPacer } from './rateLimit';
import { sendWithPolicy } from './requestPolicy';

interface ApiRequest {
	method: IHttpRequestMethods;
	/**
	 * With `companyId`, the path below that company (`/payment-files`, `''` for its record); otherwise
	 * the path below the API base URL, already encoded, or a full URL (introspection).
	 */
	path: string;
	/** The company the request is for: its path is built here (the credential sends that company's token). */
	companyId?: string;
	/** The collection the company is read from: its record (`companies`) or its French record. */
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
export function safeTransportOptions(
	requestOptions: RequestOptions = {},
): Pick<
	IHttpRequestOptions,
	'sendCredentialsOnCrossOriginRedirect' | 'proxy' | 'skipSslCertificateValidation'
> {
	const options: ReturnType<typeof safeTransportOptions> = {
		sendCredentialsOnCrossOriginRedirect: false,
	};
	if (requestOptions.allowUnauthorizedCerts) options.skipSslCertificateValidation = true;
	if (requestOptions.proxy && URL.canParse(requestOptions.proxy)) {
		const proxy = new URL(requestOptions.proxy);
		const protocol = proxy.protocol.replace(/:$/, '');
		options.proxy = {
			host: proxy.hostname,
			port: Number(proxy.port) || (protocol === 'https' ? 443 : 80),
			protocol,
			...(proxy.username
				? {
						auth: {
							username: decodeURIComponent(proxy.username),
							password: decodeURIComponent(proxy.password),
						},
					}
				: {}),
		};
	}
	return options;
}

/** The execution's cancel signal, where the context has one (a poll has none). */
export function cancelSignalOf(context: RequestContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context
		? (context as IExecuteFunctions).getExecutionCancelSignal()
		: undefined;
}

/** The body of an answer that is not parsed JSON (`json: true` hands text over as it came). */
const textOf = (body: unknown) => (typeof body === 'string' ? body.trim() : undefined);

/**
 * What a success answer must be before anyone reads it. A read wants the JSON the API documents:
 * text, an empty body or `null` is never data. A write is confirmed by an empty answer or JSON;
 * an HTML page is not the API (probably not recorded), other text may be a garbled answer of the
 * API itself (may have been recorded).
 */
function checkSuccessBody(
	context: RequestContext,
	response: IN8nHttpFullResponse,
	read: boolean,
	errorContext: ErrorContext,
): void {
	const node = context.getNode();
	const { itemIndex } = errorContext;
	const text = textOf(response.body);
	if (read) {
		if (text) throw failureError(node, 'malformedAnswer', {}, itemIndex);
		if (!isObject(response.body) && !Array.isArray(response.body)) {
			const got = text === '' ? 'an empty body' : JSON.stringify(response.body ?? null);
			throw unexpectedAnswerError(node, response, 'a JSON object', got, itemIndex);
		}
		return;
	}
	if (text?.startsWith('<')) {
		const values = { effect: errorContext.effect, what: 'an HTML page' };
		throw failureError(node, 'writeAnswerNotApi', values, itemIndex);
	}
	if (text) {
		throw uncertainWriteError(node, { reason: 'the answer could not be read' }, errorContext);
	}
}

/**
 * The package's one door to the service: every request of the node, the triggers and the
 * credential Test is sent here, under the request policy (pace, attempts, timeouts), and its
 * answer goes through the one error map. `receive` turns a success into the result inside the
 * attempt, so a file whose stream is cut mid-way is fetched again like any lost answer.
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
	const read = request.readOnly ?? isRead(request.method);
	const isFullUrl = /^https?:\/\//i.test(request.path);
	// The authorization server is not the API: its requests follow a pace of their own.
	const application = request.toAuthorizationServer
		? `${connection.application} (authorization server)`
		: connection.application;
	return await sendWithPolicy(
		{
			node,
			method: request.method,
			idempotent: read,
			errorContext: fullContext,
			signal: cancelSignalOf(context),
			deadline: connection.deadline,
			attemptTimeoutMs: connection.requestOptions?.timeout ?? connection.attemptTimeoutMs,
			pace: { application },
			attempts: connection.attempts,
		},
		async ({ timeoutMs }) => {
			// On its way until answered: the service may count it in any second until then.
			const answered = processPacer.sending(application, kindOf(request.method));
			const sent = connection.send({
				method: request.method,
				baseURL: isFullUrl ? undefined : connection.baseUrl,
				url:
					request.companyId === undefined
						? request.path
						: `/${request.companyCollection ?? 'companies'}/${encodeURIComponent(request.companyId)}${request.path}`,
				qs: request.qs,
				body: request.body,
				json: !request.file,
				encoding: request.file ? 'stream' : undefined,
				headers: {
					Accept: request.file ? '*/*' : 'application/json',
					...(request.headers ?? {}),
				},
				timeout: timeoutMs,
				ignoreHttpStatusErrors: true,
				returnFullResponse: true,
				disableFollowRedirect: request.toAuthorizationServer,
				...safeTransportOptions(connection.requestOptions),
			});
			const response = await sent.catch((error: unknown) => {
				answered();
				throw error;
			});
			answered(response);
			processPacer.learn(application, kindOf(request.method), response);
			if (
				request.toAuthorizationServer &&
				response.statusCode >= 300 &&
				response.statusCode < 400
			) {
				throw failureError(node, 'authorizationServerRedirect', { status: response.statusCode });
			}
			await throwIfApiError(node, response, fullContext);
			if (!request.file) checkSuccessBody(context, response, read, fullContext);
			return await receive(response);
		},
	);
}
