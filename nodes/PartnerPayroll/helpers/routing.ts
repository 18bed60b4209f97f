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
import { throwIfApiError, uncertainWriteError } from '../../shared/apiError';
import { NODE_RATE_LIMIT_ADVICE, failureError, type ErrorContext } from '../../shared/errors';
import { processPacer } from '../../shared/rateLimit';
import { isIdempotent, sendWithPolicy } from '../../shared/requestPolicy';
import { cancelSignalOf, safeTransportOptions } from '../../shared/transport';
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
	/** How the operation's request is sent, around the request policy (a write: in order, once). */
	sendGuard?: SendGuard;
}

/**
 * Wraps one item of an operation: `proceed` runs its hooks and sends its request under the policy.
 * Called synchronously when the engine starts the item (items start in order).
 */
export type SendGuard = (
	context: IExecutePaginationFunctions,
	proceed: (events?: { beforeSending?: () => void }) => Promise<INodeExecutionData[]>,
) => Promise<INodeExecutionData[]>;

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
		processPacer.learn((await connectionOf(this)).application, write ? 'write' : 'read', response);
		await throwIfApiError(this.getNode(), response, { ...errorContext, itemIndex });
		// Text instead of the JSON the API sends (a sign-in page, a wrong API Base URL answering
		// 200) is never a success: a read must not pass it on, a write was probably not recorded.
		const text = typeof response.body === 'string' ? response.body.trim() : '';
		if (text && !write) throw failureError(this.getNode(), 'malformedAnswer', {}, itemIndex);
		// A page is not the API's answer: the write probably did not reach it. Other text may be a
		// garbled answer of the API itself: the write may have been recorded.
		if (text.startsWith('<')) {
			const values = { effect: errorContext.effect, what: 'an HTML page' };
			throw failureError(this.getNode(), 'writeAnswerNotApi', values, itemIndex);
		}
		if (text) {
			const garbled = { reason: 'the answer could not be read' };
			throw uncertainWriteError(this.getNode(), garbled, { ...errorContext, itemIndex });
		}
		return items;
	};
}

/** n8n's item convention: every output item names the input item it came from. */
async function pairedItemPostReceive(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const pairedItem = { item: this.getItemIndex() };
	return items.map((item) => ({ ...item, pairedItem }));
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
 * Every operation's item runs here (`send.paginate`): the declarative engine's pagination hook is
 * its only place that may send a request again, and the only one where a failure can still become
 * an output item paired with its input. The operation's own hooks run first, in order (local checks
 * before the first request); the request policy decides about attempts; the post-receive hooks'
 * own downloads end final, so they never re-read.
 */
function runOperation(
	errorContext: ErrorContext,
	preSend: PreSendAction[],
	sendGuard: SendGuard | undefined,
) {
	return async function runOperation(
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const itemIndex = this.getItemIndex();
		// Hooks, then the request under the policy; a send guard may hold it back or answer itself.
		const proceed = async (events: { beforeSending?: () => void } = {}) => {
			let options = requestData.options;
			for (const hook of preSend) options = await hook.call(this, options as IHttpRequestOptions);
			const { requestOptions, application } = await connectionOf(this);
			events.beforeSending?.();
			return await sendWithPolicy(
				{
					node: this.getNode(),
					method: options.method,
					errorContext: { ...errorContext, itemIndex },
					signal: cancelSignalOf(this),
					attemptTimeoutMs: requestOptions?.timeout,
					pace: { application, gated: true },
				},
				async ({ timeoutMs }) =>
					await this.makeRoutingRequest({
						...requestData,
						options: { ...options, ...safeTransportOptions(requestOptions), timeout: timeoutMs },
					}),
			);
		};
		const run = async () => (sendGuard ? await sendGuard(this, proceed) : await proceed());
		if (!this.continueOnFail()) return await run();
		try {
			return await run();
		} catch (error) {
			// Continue On Fail: the failure becomes this item's output, still paired with its input.
			const failure = {
				json: { error: (error as Error).message },
				error,
				pairedItem: { item: itemIndex },
			};
			return [failure];
		}
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
		send: { paginate: true },
		operations: {
			pagination: runOperation(
				errorContext,
				[
					...(operation.preSend ?? []),
					...(operation.sendsMonth ? [monthAsDatePreSend] : []),
					apiBaseUrlPreSend,
					...(operation.belowCompany === undefined
						? []
						: [companyPathPreSend(operation.belowCompany, operation.collection)]),
				],
				operation.sendGuard,
			),
		},
		output: {
			postReceive: [
				apiErrorPostReceive(errorContext, !isIdempotent(operation.method)),
				oneItemPerElementPostReceive,
				...(operation.postReceive ?? []),
				pairedItemPostReceive,
			],
		},
	};
}
