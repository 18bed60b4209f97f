import type {
	IDataObject,
	IHttpRequestMethods,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';

import type { Connection, PartnerPayrollFunctions } from './credentials';
import { NODE_RATE_LIMIT_ADVICE, throwIfApiError, type ErrorContext } from './errors';
import { sendWithPolicy } from './requestPolicy';

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the API base URL, already encoded; or a full URL (introspection). */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	headers?: IDataObject;
	/** Ask for the raw bytes (files) instead of parsed JSON. */
	binary?: boolean;
	/** A POST that only reads (introspection) may be sent again like a GET. */
	readOnly?: boolean;
	/** An earlier deadline of the caller (epoch ms), e.g. the trigger's poll budget. */
	deadline?: number;
}

export const TRIGGER_RATE_LIMIT_ADVICE =
	'Poll less often: raise Poll Times of this trigger, or watch fewer months or document types.';

function isPoll(context: PartnerPayrollFunctions): context is IPollFunctions {
	return typeof (context as IPollFunctions).__emit === 'function';
}

/** The execution's cancel signal, where the context has one (a poll has none). */
export function cancelSignalOf(context: PartnerPayrollFunctions): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
}

/**
 * A request outside the declarative routing (trigger, introspection, document downloads of a
 * listing), under the package's request policy.
 */
export async function apiRequest(
	context: PartnerPayrollFunctions,
	connection: Connection,
	request: ApiRequest,
	errorContext: ErrorContext = {},
): Promise<IN8nHttpFullResponse> {
	const node = context.getNode();
	const fullContext: ErrorContext = {
		rateLimitAdvice: isPoll(context) ? TRIGGER_RATE_LIMIT_ADVICE : NODE_RATE_LIMIT_ADVICE,
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
			deadline: request.deadline ?? connection.deadline,
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
					json: !request.binary,
					encoding: request.binary ? 'arraybuffer' : undefined,
					headers: {
						Accept: request.binary ? '*/*' : 'application/json',
						...(request.headers ?? {}),
					},
					timeout: timeoutMs,
					ignoreHttpStatusErrors: true,
					returnFullResponse: true,
				},
			)) as IN8nHttpFullResponse;
			throwIfApiError(node, response, fullContext);
			return response;
		},
	);
}

export function companyPath(companyId: string, suffix = ''): string {
	return `/companies/${encodeURIComponent(companyId)}${suffix}`;
}
