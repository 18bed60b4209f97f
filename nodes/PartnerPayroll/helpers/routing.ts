import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	PostReceiveAction,
	PreSendAction,
} from 'n8n-workflow';

import { companyPath, type CompanyCollection } from '../../shared/company';
import {
	NODE_RATE_LIMIT_ADVICE,
	failureError,
	throwIfApiError,
	type ErrorContext,
} from '../../shared/errors';
import { isIdempotent, sendWithPolicy } from '../../shared/requestPolicy';
import { cancelSignalOf } from '../../shared/transport';
import { companyIdOf, connectionOf, monthOf } from './itemValues';

// How one operation of the node is sent: local checks first, under the request policy, one error map.

interface OperationRouting {
	method: 'GET' | 'POST';
	/**
	 * The path below the company (`/payroll-status`; '' for the company itself). Absent when a
	 * pre-send hook of the operation sets the whole path (a document's listed path).
	 */
	belowCompany?: string;
	collection?: CompanyCollection;
	/** The item's Month goes as the `date` query parameter. */
	sendsMonth?: boolean;
	/** The answer is a file. */
	binary?: boolean;
	country?: ErrorContext['country'];
	/** What a write does, for "may have been recorded" errors, e.g. "The billing declaration". */
	effect?: string;
	/** The operation's own local checks and request building. */
	preSend?: PreSendAction[];
	/** The operation's own shaping of the answer, after the error map. */
	postReceive?: PostReceiveAction[];
}

async function monthAsDatePreSend(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	requestOptions.qs = { ...requestOptions.qs, date: monthOf(this) };
	return requestOptions;
}

// Not a requestDefaults expression (`={{$credentials.baseUrl}}`): n8n would evaluate it again for
// every item, in n8n 2.40 in its expression sandbox.
/** The API Base URL of the node's credential, read once per execution. */
async function apiBaseUrlPreSend(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	requestOptions.baseURL = (await connectionOf(this)).baseUrl;
	return requestOptions;
}

/** Runs last: the company lookup is the first request an item may cause. */
function companyPathPreSend(belowCompany: string, collection?: CompanyCollection): PreSendAction {
	return async function companyPathPreSend(this: IExecuteSingleFunctions, requestOptions) {
		requestOptions.url = companyPath(await companyIdOf(this), belowCompany, collection);
		return requestOptions;
	};
}

function apiErrorPostReceive(errorContext: ErrorContext, write: boolean): PostReceiveAction {
	return async function apiErrorPostReceive(
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		const itemIndex = this.getItemIndex();
		await throwIfApiError(this.getNode(), response, { ...errorContext, itemIndex });
		// A write succeeded with any 2xx, whatever its body. A read that got text back (garbled, or
		// an HTML page) must not pass the text on.
		if (!write && typeof response.body === 'string') {
			throw failureError(this.getNode(), 'malformedAnswer', {}, itemIndex);
		}
		return items;
	};
}

/** The engine splits array answers only when an operation has no post-receive hook; ours all do. */
async function oneItemPerElementPostReceive(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const body = response.body as IDataObject[] | IDataObject;
	return Array.isArray(body) ? body.map((json) => ({ json })) : items;
}

/**
 * Every operation's request goes through here (`send.paginate`): the declarative engine's
 * pagination hook is its only place that may send a request again. The package's request policy
 * decides whether it does; the post-receive hooks' own downloads end final, so they never re-read.
 */
function sendUnderPolicy(errorContext: ErrorContext) {
	return async function sendOperationRequest(
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const { options } = requestData;
		return await sendWithPolicy(
			{
				node: this.getNode(),
				method: options.method,
				errorContext: { ...errorContext, itemIndex: this.getItemIndex() },
				signal: cancelSignalOf(this),
			},
			async ({ timeoutMs }) =>
				await this.makeRoutingRequest({
					...requestData,
					// The node's Timeout option, when lower, still wins.
					options: { ...options, timeout: Math.min(options.timeout ?? timeoutMs, timeoutMs) },
				}),
		);
	};
}

/** The routing every operation of the node shares: request policy, local checks first, one error map. */
export function operationRouting(operation: OperationRouting) {
	const errorContext: ErrorContext = {
		country: operation.country,
		effect: operation.effect,
		rateLimitAdvice: NODE_RATE_LIMIT_ADVICE,
	};
	return {
		request: {
			method: operation.method,
			...(operation.binary
				? // Files stream from the socket into n8n's binary store (see fileToItem).
					{ encoding: 'stream' as const, json: false, headers: { Accept: '*/*' } }
				: {}),
		},
		send: {
			paginate: true,
			preSend: [
				...(operation.sendsMonth ? [monthAsDatePreSend] : []),
				...(operation.preSend ?? []),
				apiBaseUrlPreSend,
				...(operation.belowCompany === undefined
					? []
					: [companyPathPreSend(operation.belowCompany, operation.collection)]),
			],
		},
		operations: { pagination: sendUnderPolicy(errorContext) },
		output: {
			postReceive: [
				apiErrorPostReceive(errorContext, !isIdempotent(operation.method)),
				oneItemPerElementPostReceive,
				...(operation.postReceive ?? []),
			],
		},
	};
}
