import type {
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import type { Connection, PartnerPayrollFunctions, RequestOptions } from './connection';
import { throwIfApiError } from './apiError';
import { failureError, type ErrorContext } from './errors';
import { kindOf, processPacer } from './rateLimit';
import { sendWithPolicy } from './requestPolicy';

interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the API base URL, already encoded; or a full URL (introspection). */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	headers?: IDataObject;
	/** A POST that only reads (introspection) may be sent again like a GET. */
	readOnly?: boolean;
	/** The authorization server: its body carries the token, so no redirect is followed at all. */
	toAuthorizationServer?: boolean;
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
export function cancelSignalOf(context: PartnerPayrollFunctions): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
}

/**
 * A request outside the declarative routing (trigger, introspection, document downloads of a
 * listing), under the package's request policy. `receive` turns a success into the result inside
 * the attempt, so a file whose stream is cut mid-way is fetched again like any lost answer.
 */
async function sendRequest<T>(
	context: PartnerPayrollFunctions,
	connection: Connection,
	request: ApiRequest & { stream?: boolean },
	errorContext: ErrorContext,
	receive: (response: IN8nHttpFullResponse) => Promise<T>,
): Promise<T> {
	const node = context.getNode();
	const fullContext: ErrorContext = {
		rateLimitAdvice: connection.rateLimitAdvice,
		...(request.toAuthorizationServer ? { server: 'authorization' as const } : {}),
		...errorContext,
	};
	const isFullUrl = /^https?:\/\//i.test(request.path);
	// The authorization server is not the API: its requests follow a pace of their own.
	const application = request.toAuthorizationServer
		? `${connection.application} (authorization server)`
		: connection.application;
	return await sendWithPolicy(
		{
			node,
			method: request.method,
			idempotent: request.readOnly,
			errorContext: fullContext,
			signal: cancelSignalOf(context),
			deadline: connection.deadline,
			attemptTimeoutMs: connection.requestOptions?.timeout,
			pace: { application },
		},
		async ({ timeoutMs }) => {
			const response = (await context.helpers.httpRequestWithAuthentication.call(
				context,
				connection.credentialType,
				{
					method: request.method,
					baseURL: isFullUrl ? undefined : connection.baseUrl,
					url: request.path,
					qs: request.qs,
					body: request.body,
					json: !request.stream,
					encoding: request.stream ? 'stream' : undefined,
					headers: {
						Accept: request.stream ? '*/*' : 'application/json',
						...(request.headers ?? {}),
					},
					timeout: timeoutMs,
					ignoreHttpStatusErrors: true,
					returnFullResponse: true,
					disableFollowRedirect: request.toAuthorizationServer,
					...safeTransportOptions(connection.requestOptions),
				},
			)) as IN8nHttpFullResponse;
			processPacer.learn(application, kindOf(request.method), response);
			if (
				request.toAuthorizationServer &&
				response.statusCode >= 300 &&
				response.statusCode < 400
			) {
				throw failureError(node, 'authorizationServerRedirect', { status: response.statusCode });
			}
			await throwIfApiError(node, response, fullContext);
			return await receive(response);
		},
	);
}

/** A JSON request: the full answer, once the status says success. */
export async function apiRequest(
	context: PartnerPayrollFunctions,
	connection: Connection,
	request: ApiRequest,
	errorContext: ErrorContext = {},
): Promise<IN8nHttpFullResponse> {
	return await sendRequest(
		context,
		connection,
		request,
		errorContext,
		async (response) => response,
	);
}

/** A file: its answer streams into `receive` (for example fileToItem), within the attempt. */
export async function apiDownload<T>(
	context: PartnerPayrollFunctions,
	connection: Connection,
	request: ApiRequest,
	errorContext: ErrorContext,
	receive: (response: IN8nHttpFullResponse) => Promise<T>,
): Promise<T> {
	return await sendRequest(
		context,
		connection,
		{ ...request, stream: true },
		errorContext,
		receive,
	);
}
