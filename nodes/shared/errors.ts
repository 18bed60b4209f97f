import {
	NodeApiError,
	jsonParse,
	type IDataObject,
	type IN8nHttpFullResponse,
	type INode,
	type JsonObject,
} from 'n8n-workflow';

export type CountryCode = 'FR' | 'GB';

const COUNTRY_NAMES: Record<CountryCode, string> = { FR: 'France', GB: 'the United Kingdom' };

/** What the error map needs to know about the operation that failed. */
export interface ErrorContext {
	/** The operation serves companies of this country only (the spec's country labels). */
	country?: CountryCode;
	itemIndex?: number;
}

/** A service error; `retryAfterMs` is set when repeating the same request may succeed. */
export class PartnerPayrollApiError extends NodeApiError {
	retryAfterMs?: number;
}

const RETRYABLE_STATUSES = [429, 500, 502, 503, 504];
const DEFAULT_RETRY_AFTER_MS = 1000;
const MAX_RETRY_AFTER_MS = 30_000;

/** Error bodies of binary operations arrive as bytes; the service's own words must survive. */
export function decodeErrorBody(body: unknown): IDataObject {
	let value = body;
	if (Buffer.isBuffer(value) || value instanceof ArrayBuffer) {
		value = Buffer.from(value as Buffer).toString('utf8');
	}
	if (typeof value === 'string') {
		value = jsonParse<unknown>(value, { fallbackValue: { error: value.slice(0, 500) } });
	}
	return value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};
}

function header(response: IN8nHttpFullResponse, name: string): string | undefined {
	const value = response.headers?.[name.toLowerCase()];
	return value === undefined || value === null ? undefined : String(value);
}

function retryAfterMs(response: IN8nHttpFullResponse): number {
	const retryAfter = header(response, 'retry-after');
	if (retryAfter !== undefined) {
		const seconds = Number(retryAfter);
		const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
		if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
	}
	// Without Retry-After, the service's per-second window tells when a slot frees up.
	return header(response, 'x-ratelimit-remaining-second') === '0' ? 1000 : DEFAULT_RETRY_AFTER_MS;
}

function text(value: unknown): string {
	if (value === undefined || value === null || value === '') return '';
	return typeof value === 'string' ? value : JSON.stringify(value);
}

function messageFor(status: number, serviceError: string, details: string, context: ErrorContext) {
	const serviceSaid = `The service answered: ${[serviceError, details].filter(Boolean).join(' – ')}`;
	switch (status) {
		case 400:
			return {
				message: `Bad request: ${details || serviceError || 'the service refused the request'}`,
				description: serviceSaid,
			};
		case 401:
			return {
				message: 'The access token is invalid or has been revoked',
				description: `Reconnect the Partner Payroll credential (the service issues no refresh token, so a revoked or replaced token cannot be renewed automatically). ${serviceSaid}`,
			};
		case 403: {
			const scope = /scope\s+"([^"]+)"/i.exec(details)?.[1];
			return scope
				? {
						message: `Missing scope "${scope}"`,
						description: `The credential's token was not granted the scope "${scope}". Add it to the scopes of the credential and reconnect it. ${serviceSaid}`,
					}
				: { message: `Forbidden: ${details || serviceError}`, description: serviceSaid };
		}
		case 404: {
			const country = context.country
				? ` This operation serves companies in ${COUNTRY_NAMES[context.country]} (${context.country}) only.`
				: '';
			return {
				message: `Not found: ${details || serviceError || 'the provided id is wrong'}`,
				description: `Check the company ID and any document ID: a token sees only its own company.${country} ${serviceSaid}`,
			};
		}
		case 429:
			return {
				message: 'The Partner Payroll API rate limit was reached, even after retrying',
				description: `The service allows a fixed number of requests per second per application. Lower the parallelism with Options > Batching. ${serviceSaid}`,
			};
		default:
			return {
				message:
					status >= 500
						? `The Partner Payroll service failed (HTTP ${status})`
						: `The Partner Payroll API answered HTTP ${status}`,
				description: serviceSaid,
			};
	}
}

/** The one error map of the package: turns an error answer of the service into a clear error. */
export function apiErrorFromResponse(
	node: INode,
	response: IN8nHttpFullResponse,
	context: ErrorContext = {},
): PartnerPayrollApiError {
	const body = decodeErrorBody(response.body);
	const serviceError = text(body.error ?? body.message);
	const details = text(body.details);
	const { message, description } = messageFor(response.statusCode, serviceError, details, context);
	const error = new PartnerPayrollApiError(node, body as JsonObject, {
		message,
		description,
		httpCode: String(response.statusCode),
		itemIndex: context.itemIndex,
	});
	if (RETRYABLE_STATUSES.includes(response.statusCode)) {
		error.retryAfterMs = retryAfterMs(response);
	}
	return error;
}

export function throwIfApiError(
	node: INode,
	response: IN8nHttpFullResponse,
	context?: ErrorContext,
): void {
	if (response.statusCode >= 400) throw apiErrorFromResponse(node, response, context);
}

/**
 * A failure without an answer (connection reset, truncated body, timeout). The engine's own
 * error would carry the request configuration, headers included, so only the cause is kept.
 */
export function connectionError(
	node: INode,
	cause: unknown,
	itemIndex?: number,
): PartnerPayrollApiError {
	const { code, message } = (cause ?? {}) as { code?: string; message?: string };
	const reason = code ?? message ?? 'unknown error';
	const error = new PartnerPayrollApiError(node, { message: reason } as JsonObject, {
		message: `Could not get a complete answer from the Partner Payroll API (${reason})`,
		description:
			'The connection failed or the answer was cut off; the request was retried before giving up.',
		itemIndex,
	});
	error.retryAfterMs = DEFAULT_RETRY_AFTER_MS;
	return error;
}

/** A success status with a body that is not the JSON the operation returns. */
export function malformedAnswerError(node: INode, itemIndex?: number): PartnerPayrollApiError {
	return new PartnerPayrollApiError(node, { message: 'malformed answer' } as JsonObject, {
		message: 'The Partner Payroll API returned an answer that is not valid JSON',
		description: 'The answer was cut off or is not in the documented format. Try again later.',
		itemIndex,
	});
}
