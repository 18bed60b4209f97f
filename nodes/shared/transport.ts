import type { IDataObject, IHttpRequestMethods, IN8nHttpFullResponse } from 'n8n-workflow';

import type { Connection, PartnerPayrollFunctions } from './connection';
import { throwIfApiError, type ErrorContext } from './errors';
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
		...errorContext,
	};
	const isFullUrl = /^https?:\/\//i.test(request.path);
	return await sendWithPolicy(
		{
			node,
			method: request.method,
			idempotent: request.readOnly,
			errorContext: fullContext,
			signal: cancelSignalOf(context),
			deadline: connection.deadline,
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
				},
			)) as IN8nHttpFullResponse;
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
