import {
	NodeOperationError,
	sleep,
	type IDataObject,
	type IHttpRequestMethods,
	type IN8nHttpFullResponse,
	type INode,
} from 'n8n-workflow';

import type { Connection, PartnerPayrollFunctions } from './credentials';
import {
	PartnerPayrollApiError,
	connectionError,
	throwIfApiError,
	type ErrorContext,
} from './errors';

/** Retries after the first attempt; with Retry-After capped at 30 s a request gives up within about 2 minutes. */
export const MAX_RETRIES = 3;

/**
 * Sends, and repeats the sending while the service answers 429/5xx or the connection fails,
 * waiting what the service asks for (Retry-After, rate-limit headers). Other errors pass through.
 */
export async function withRetry<T>(
	node: INode,
	send: () => Promise<T>,
	itemIndex?: number,
): Promise<T> {
	for (let attempt = 0; ; attempt++) {
		let failure: PartnerPayrollApiError | NodeOperationError;
		try {
			return await send();
		} catch (error) {
			failure =
				error instanceof PartnerPayrollApiError || error instanceof NodeOperationError
					? error
					: connectionError(node, error, itemIndex);
		}
		if (
			!(failure instanceof PartnerPayrollApiError) ||
			failure.retryAfterMs === undefined ||
			attempt >= MAX_RETRIES
		) {
			throw failure;
		}
		await sleep(Math.max(failure.retryAfterMs, 250 * 2 ** attempt));
	}
}

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the API base URL, already encoded. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** Ask for the raw bytes (files) instead of parsed JSON. */
	binary?: boolean;
}

const REQUEST_TIMEOUT_MS = 120_000;

/** A request outside the declarative routing (trigger, document downloads of a listing). */
export async function apiRequest(
	context: PartnerPayrollFunctions,
	connection: Connection,
	request: ApiRequest,
	errorContext: ErrorContext = {},
): Promise<IN8nHttpFullResponse> {
	const node = context.getNode();
	return await withRetry(
		node,
		async () => {
			const response = (await context.helpers.httpRequestWithAuthentication.call(
				context,
				connection.credentialType,
				{
					method: request.method,
					baseURL: connection.baseUrl,
					url: request.path,
					qs: request.qs,
					body: request.body,
					json: !request.binary,
					encoding: request.binary ? 'arraybuffer' : undefined,
					headers: { Accept: request.binary ? '*/*' : 'application/json' },
					timeout: REQUEST_TIMEOUT_MS,
					ignoreHttpStatusErrors: true,
					returnFullResponse: true,
				},
			)) as IN8nHttpFullResponse;
			throwIfApiError(node, response, errorContext);
			return response;
		},
		errorContext.itemIndex,
	);
}

export function companyPath(companyId: string, suffix = ''): string {
	return `/companies/${encodeURIComponent(companyId)}${suffix}`;
}
