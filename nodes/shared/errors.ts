import {
	NodeApiError,
	NodeOperationError,
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
	/** What a write does, for "may have been recorded" errors, e.g. "The billing declaration". */
	effect?: string;
	/** How to space requests out, in terms of a setting of the node that failed. */
	rateLimitAdvice?: string;
}

export const NODE_RATE_LIMIT_ADVICE =
	'Send fewer requests at once: in this node, Add Option > Request Options > Batching (for example 10 items per batch every 1000 ms).';

/**
 * An error of the Partner Payroll API, or of the way to it. `retryable` says whether sending the
 * same request again may succeed; `retryAfterMs` is the wait the service asked for, if any.
 */
export class PartnerPayrollApiError extends NodeApiError {
	retryable = false;

	retryAfterMs?: number;
}

const RETRYABLE_STATUSES = [429, 500, 502, 503, 504];

/** Error bodies of binary operations arrive as bytes; the service's own words must survive. */
export function decodeErrorBody(body: unknown): IDataObject {
	let value = body;
	if (Buffer.isBuffer(value) || value instanceof ArrayBuffer) {
		value = Buffer.from(value as Buffer).toString('utf8');
	}
	if (typeof value === 'string') {
		const trimmed = value.trim();
		// A proxy's HTML page is not the service's answer: keep its title, not its markup.
		const title = /<title>([^<]*)<\/title>/i.exec(trimmed)?.[1];
		value = trimmed.startsWith('<')
			? { error: title?.trim() || 'an HTML page instead of the API error object' }
			: jsonParse<unknown>(trimmed, { fallbackValue: { error: trimmed.slice(0, 500) } });
	}
	return value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};
}

function header(response: IN8nHttpFullResponse, name: string): string | undefined {
	const value = response.headers?.[name.toLowerCase()];
	return value === undefined || value === null ? undefined : String(value);
}

/** The wait the service asks for (Retry-After in seconds or as a date), if it asks. */
function askedWaitMs(response: IN8nHttpFullResponse): number | undefined {
	const retryAfter = header(response, 'retry-after');
	if (retryAfter !== undefined) {
		const seconds = Number(retryAfter);
		const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
		if (Number.isFinite(ms)) return Math.max(ms, 0);
	}
	// Without Retry-After, the service's per-second window tells when a slot frees up.
	return header(response, 'x-ratelimit-remaining-second') === '0' ? 1000 : undefined;
}

function text(value: unknown): string {
	if (value === undefined || value === null || value === '') return '';
	return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The spec's optional `errors` array, one line per entry, as the service wrote it. */
function listedErrors(body: IDataObject): string {
	if (!Array.isArray(body.errors) || !body.errors.length) return '';
	return ` Errors: ${body.errors.map((entry) => text(entry)).join('; ')}.`;
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
				description: `The service allows a fixed number of requests per second per application. ${context.rateLimitAdvice ?? NODE_RATE_LIMIT_ADVICE} ${serviceSaid}`,
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
		description: `${description}${listedErrors(body)}`,
		httpCode: String(response.statusCode),
		itemIndex: context.itemIndex,
	});
	error.retryable = RETRYABLE_STATUSES.includes(response.statusCode);
	if (error.retryable) error.retryAfterMs = askedWaitMs(response);
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
 * A failure without a complete answer (connection reset or refused, timeout, truncated body). The
 * engine's own error would carry the request configuration, headers included, so only the cause is kept.
 */
export function connectionError(
	node: INode,
	reason: string,
	context: ErrorContext = {},
): PartnerPayrollApiError {
	const error = new PartnerPayrollApiError(node, { message: reason } as JsonObject, {
		message: `Could not get a complete answer from the Partner Payroll API (${reason})`,
		description:
			'The connection failed, timed out or the answer was cut off. The request was sent again, within the limits stated in the README, before giving up.',
		itemIndex: context.itemIndex,
	});
	error.retryable = true;
	return error;
}

/**
 * A write whose outcome is unknown: it reached the service, and no answer said it was refused.
 * Sending it again could record it twice, so it never is.
 */
export function uncertainWriteError(
	node: INode,
	whatHappened: string,
	context: ErrorContext = {},
): NodeOperationError {
	const effect = context.effect ?? 'The request';
	return new NodeOperationError(
		node,
		`${effect} may have been recorded: ${whatHappened} after the request was sent`,
		{
			itemIndex: context.itemIndex,
			description: `It was not sent again, because a second request could record it twice. Before running this node again, check with the Partner Payroll provider whether it was recorded; run again only if it was not.`,
		},
	);
}

/** A success status with a body that is not the JSON the operation returns. */
export function malformedAnswerError(node: INode, itemIndex?: number): PartnerPayrollApiError {
	return new PartnerPayrollApiError(node, { message: 'malformed answer' } as JsonObject, {
		message: 'The Partner Payroll API returned an answer that is not valid JSON',
		description:
			'The answer is not in the documented format (for example an HTML page from a proxy). Check the API Base URL of the credential, or try again later.',
		itemIndex,
	});
}

/** Failures that sending again cannot mend, each with what to do about it. */
export function setupError(
	node: INode,
	message: string,
	description: string,
	itemIndex?: number,
): NodeOperationError {
	return new NodeOperationError(node, message, { itemIndex, description });
}
