import {
	NodeApiError,
	NodeOperationError,
	jsonParse,
	type IDataObject,
	type IN8nHttpFullResponse,
	type INode,
	type JsonObject,
} from 'n8n-workflow';

import { REVOKED_TOKEN, failureError, type CountryCode, type ErrorContext } from './errors';
import { askedWaitMs } from './rateLimit';
import { bodyBytes, isObject, isStream } from './bodies';

// The service's error answers and the failures on the way to it, in words: the one error map of the
// package. What the request policy decides (attempts, waits) is not here.

/** An error of the API or of the way to it: may the same request succeed again, and after what wait. */
export class PartnerPayrollApiError extends NodeApiError {
	retryable = false;
	retryAfterMs?: number;
}

/** The answers after which the same request may succeed: too many requests, a failing service. */
export const RETRYABLE_STATUSES = [429, 500, 502, 503, 504];

const COUNTRY_NAMES: Record<CountryCode, string> = { FR: 'France', GB: 'the United Kingdom' };

/** Error bodies of binary operations arrive as bytes; the service's own words must survive. */
function decodeErrorBody(body: unknown): IDataObject {
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
	return isObject(value) ? value : {};
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
	// The token lookup failed at the authorization server: its address is the likely cause.
	if (context.server === 'authorization' && ![401, 429].includes(status)) {
		return {
			message: `The authorization server answered HTTP ${status} to the token lookup`,
			description: `Company ID is empty, so the company of the token is looked up at the Authorization Server URL of the credential (<Authorization Server URL>/introspect). Check that address, or type the Company ID. ${serviceSaid}`,
		};
	}
	switch (status) {
		case 400:
			return {
				message: `Bad request: ${details || serviceError || 'the service refused the request'}`,
				description: serviceSaid,
			};
		case 401:
			return {
				message: REVOKED_TOKEN,
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
			// The likeliest cause first: the company's country where the operation serves one only.
			const country = context.country
				? `This operation serves companies in ${COUNTRY_NAMES[context.country]} (${context.country}) only. `
				: '';
			return {
				message: `Not found: ${details || serviceError || 'the provided id is wrong'}`,
				description: `${country}Check the company ID and any document ID: a token sees only its own company. ${serviceSaid}`,
			};
		}
		case 429:
			return {
				message: 'The Partner Payroll API rate limit was reached, even after retrying',
				description: `The service allows a fixed number of requests per second per application. ${context.rateLimitAdvice ? `${context.rateLimitAdvice} ` : ''}${serviceSaid}`,
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

/** Throws the mapped error of an error answer; a streamed error body is read first, success bodies stay streaming. */
export async function throwIfApiError(
	node: INode,
	response: IN8nHttpFullResponse,
	context?: ErrorContext,
): Promise<void> {
	if (response.statusCode < 400) return;
	// Capped: an error page can be any size, and only its words are kept.
	const body = isStream(response.body) ? await bodyBytes(response.body, 64 * 1024) : response.body;
	throw apiErrorFromResponse(node, { ...response, body }, context);
}

/**
 * Transport failures in words (n8n replaces any error message that contains a raw code with its own
 * text), and whether the request may have reached the service: a write that may have is never sent again.
 */
export const TRANSPORT_FAILURES: Record<string, { words: string; sent: boolean }> = {
	ECONNREFUSED: { words: 'connection refused', sent: false },
	EAI_AGAIN: { words: 'the host name could not be looked up for now', sent: false },
	ECONNRESET: { words: 'connection reset', sent: true },
	UND_ERR_SOCKET: { words: 'connection reset', sent: true },
	EPIPE: { words: 'connection closed while sending', sent: true },
	ETIMEDOUT: { words: 'timed out', sent: true },
	ECONNABORTED: { words: 'timed out', sent: true },
	ESOCKETTIMEDOUT: { words: 'timed out', sent: true },
	ERR_BAD_RESPONSE: { words: 'answer cut off', sent: true }, // axios: the body stream was aborted mid-way
	ERR_STREAM_PREMATURE_CLOSE: { words: 'answer cut off', sent: true },
};

/** What went wrong with a request that got no usable answer: a transport code, or an error's own words. */
export type LostAnswer = { code: string } | { reason: string };

const reasonOf = (lost: LostAnswer) =>
	'code' in lost ? (TRANSPORT_FAILURES[lost.code]?.words ?? lost.code) : lost.reason;

/** No complete answer (reset, refused, timeout, cut off); only the cause is kept, never the request's headers. */
export function connectionError(
	node: INode,
	lost: LostAnswer,
	context: ErrorContext = {},
): PartnerPayrollApiError {
	const reason = reasonOf(lost);
	const timedOut = reason === TRANSPORT_FAILURES.ETIMEDOUT.words && context.timeoutAdvice;
	const error = new PartnerPayrollApiError(node, { message: reason } as JsonObject, {
		message: `Could not get a complete answer from the Partner Payroll API (${reason})`,
		description: `The connection failed, timed out or the answer was cut off. The request was sent again, within the limits stated in the README, before giving up.${timedOut ? ` ${context.timeoutAdvice}` : ''}`,
		itemIndex: context.itemIndex,
	});
	error.retryable = true;
	return error;
}

/** A write that reached the service with no answer saying it was refused: it is never sent again. */
export function uncertainWriteError(
	node: INode,
	failed: { httpCode: string } | LostAnswer,
	context: ErrorContext = {},
): NodeOperationError {
	const effect = context.effect ?? 'The request';
	const whatHappened =
		'httpCode' in failed
			? `the service failed (HTTP ${failed.httpCode})`
			: 'code' in failed
				? `the connection failed (${reasonOf(failed)})`
				: failed.reason;
	const message = `${effect} may have been recorded: ${whatHappened} after the request was sent`;
	return new NodeOperationError(node, message, {
		itemIndex: context.itemIndex,
		description: `It was not sent again, because a second request could record it twice. Before running this node again, check with the Partner Payroll provider whether it was recorded; run again only if it was not.`,
	});
}

/** A success status whose body is not what the operation documents (empty, `null`, no list...). */
export function unexpectedAnswerError(
	node: INode,
	response: IN8nHttpFullResponse,
	expected: string,
	itemIndex?: number,
	got = JSON.stringify(response.body ?? null),
) {
	const values = { expected, got: got.slice(0, 200), status: response.statusCode };
	return failureError(node, 'unexpectedAnswer', values, itemIndex);
}
