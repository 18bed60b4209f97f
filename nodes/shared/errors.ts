import {
	NodeOperationError,
	jsonParse,
	type IDataObject,
	type IN8nHttpFullResponse,
	type INode,
	type JsonObject,
} from 'n8n-workflow';

import { bodyBytes, isStream } from './streams';
import { PartnerPayrollApiError, withRetryFacts } from './apiError';

// What the user reads when something fails: every message and hint is built here; the request
// policy only decides (kind of failure, attempts, waits).

type CountryCode = 'FR' | 'GB';
const COUNTRY_NAMES: Record<CountryCode, string> = { FR: 'France', GB: 'the United Kingdom' };

/** What the error map needs to know about the operation that failed. */
export interface ErrorContext {
	country?: CountryCode; // the operation serves companies of this country only
	itemIndex?: number;
	effect?: string; // what a write does, e.g. "The billing declaration"
	rateLimitAdvice?: string; // how to space requests out, in the sender's own settings
	server?: 'authorization'; // the request went to the authorization server (token lookup)
}

export const NODE_RATE_LIMIT_ADVICE =
	'Send fewer requests at once: in this node, Add Option > Request Options > Batching (for example 10 items per batch every 1000 ms).';

export const TRIGGER_RATE_LIMIT_ADVICE =
	'Poll less often: raise Poll Times of this trigger, or watch fewer months or document types.';

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
	return value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};
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

/** The token lookup failed at the authorization server: its address is the likely cause. */
function authorizationServerMessage(status: number, serviceError: string, details: string) {
	return {
		message: `The authorization server answered HTTP ${status} to the token lookup`,
		description: `Company ID is empty, so the company of the token is looked up at the Authorization Server URL of the credential (<Authorization Server URL>/introspect). Check that address, or type the Company ID. The service answered: ${[serviceError, details].filter(Boolean).join(' – ')}`,
	};
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
	const { message, description } =
		context.server === 'authorization' && ![401, 429].includes(response.statusCode)
			? authorizationServerMessage(response.statusCode, serviceError, details)
			: messageFor(response.statusCode, serviceError, details, context);
	const error = new PartnerPayrollApiError(node, body as JsonObject, {
		message,
		description: `${description}${listedErrors(body)}`,
		httpCode: String(response.statusCode),
		itemIndex: context.itemIndex,
	});
	return withRetryFacts(error, response);
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

/** Transport failures in words: n8n replaces any error message that contains a raw code with its own text. */
const TRANSPORT_FAILURES: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	EAI_AGAIN: 'the host name could not be looked up for now',
	ECONNRESET: 'connection reset',
	UND_ERR_SOCKET: 'connection reset',
	EPIPE: 'connection closed while sending',
	ETIMEDOUT: 'timed out',
	ECONNABORTED: 'timed out',
	ESOCKETTIMEDOUT: 'timed out',
	ERR_BAD_RESPONSE: 'answer cut off',
	ERR_STREAM_PREMATURE_CLOSE: 'answer cut off',
};

/** What went wrong with a request that got no usable answer: a transport code, or an error's own words. */
export type LostAnswer = { code: string } | { reason: string };

const reasonOf = (lost: LostAnswer) =>
	'code' in lost ? (TRANSPORT_FAILURES[lost.code] ?? lost.code) : lost.reason;

/** No complete answer (reset, refused, timeout, cut off); only the cause is kept, never the request's headers. */
export function connectionError(
	node: INode,
	lost: LostAnswer,
	context: ErrorContext = {},
): PartnerPayrollApiError {
	const reason = reasonOf(lost);
	const error = new PartnerPayrollApiError(node, { message: reason } as JsonObject, {
		message: `Could not get a complete answer from the Partner Payroll API (${reason})`,
		description:
			'The connection failed, timed out or the answer was cut off. The request was sent again, within the limits stated in the README, before giving up.',
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

const BUDGET_HINT =
	'Attempts and waits of one request stop after {budget} s, and a trigger poll ends within its own, shorter budget. Try again later.';

/** Failures that sending again cannot mend, with what to do about them: message, description. */
// prettier-ignore
const FAILURES = {
	cancelled: ['The execution was cancelled', ''],
	oAuth2NotConnected: ['The OAuth2 credential is not connected: click Connect',
		'Open the Partner Payroll OAuth2 credential and click "Connect my account"; a company administrator logs in and accepts.'],
	hostNotFound: ['Cannot find the server {host}',
		'Check the API Base URL and the Authorization Server URL of the credential, and that n8n can resolve host names.'],
	tls: ['The secure connection to the Partner Payroll API failed',
		'The server certificate was not accepted ({code}). Check the API Base URL (https and host name).'],
	invalidUrl: ['The API Base URL of the credential is not a valid URL',
		'Use the address given by the provider, for example https://api.example.com/v1.'],
	malformedAnswer: ['The Partner Payroll API returned an answer that is not valid JSON',
		'The answer is not in the documented format (for example an HTML page from a proxy). Check the API Base URL of the credential, or try again later.'],
	noAuthServer: ['Company ID is empty and the credential has no Authorization Server URL',
		'Either type the Company ID, or set the Authorization Server URL in the credential so the company of the token can be looked up.'],
	inactiveToken: ['The access token is not active',
		'The authorization server reports the token as revoked or unknown. Reconnect the Partner Payroll credential.'],
	requestBudget: ['The Partner Payroll API did not answer within the time limit of this request ({last})',
		BUDGET_HINT],
	pollRequestBudget: ['The Partner Payroll API did not answer within the time budget of this poll ({last})',
		BUDGET_HINT],
	retryAfterTooLong: ['The Partner Payroll API asked to wait {seconds} s before trying again',
		'The service answered with Retry-After: {seconds} s, longer than this node waits between attempts ({maxWait} s). Run it again after that time. {advice}'],
	noPayrollSample: ['No data with the current filter could be found',
		'None of the watched months is completed yet. Choose Specific Months with a completed month to see a sample.'],
	noDocumentSample: ['No data with the current filter could be found',
		'The company has no income tax or auto-enrolment documents in the chosen listings yet.'],
	writeAnswerNotApi: ['{effect} was probably not recorded: the answer is {what}, not the Partner Payroll API',
		'A sign-in page, a proxy or a wrong API Base URL answered with success. Check the API Base URL of the credential, and check with the provider before running again.'],
	writeNotSentAgain: ['{effect} was not sent again: it may have been recorded earlier in this execution',
		'This execution already sent the same declaration and its outcome is unknown (Retry On Fail, a loop, or an agent calling again). Check with the Partner Payroll provider whether it was recorded.'],
	writeBatchNotSent: ['Nothing was sent: item {item} did not pass its checks ({reason})',
		'All items are checked before the first one is sent, so a batch is never half sent. Fix that item and run the node again.'],
	notTheFile: ['The Partner Payroll API answered with {what} instead of the file',
		'A sign-in page, a proxy or a wrong API Base URL answered. Check the API Base URL of the credential.'],
	authorizationServerRedirect: ['The authorization server answered with a redirect (HTTP {status})',
		'The token is sent to the Authorization Server URL only, never on to another address. Check the Authorization Server URL of the credential (https, host and path).'],
	pollBudget: ['The poll exceeded its time budget of {seconds} s',
		'The Partner Payroll API answered too slowly. Nothing was stored: the next poll checks the same months and documents again.'],
} satisfies Record<string, [string, string]>;

export type Failure = keyof typeof FAILURES;

const DEFAULT_VALUES: Record<string, string> = { host: 'the host of the API Base URL' };

/** A failure of the table above, its `{placeholders}` filled from `values`. */
export function failureError(
	node: INode,
	failure: Failure,
	values: Record<string, string | number | undefined> = {},
	itemIndex?: number,
): NodeOperationError {
	const fill = (template: string) =>
		template
			.replace(/\{(\w+)\}/g, (_, name: string) =>
				String(values[name] ?? DEFAULT_VALUES[name] ?? ''),
			)
			.trim();
	const [message, description] = FAILURES[failure];
	return new NodeOperationError(node, fill(message), {
		itemIndex,
		description: fill(description) || undefined,
	});
}

/** A parameter that fails a local check, before any request, worded by the rule that checks it. */
export function parameterError(
	node: INode,
	message: string,
	options: { itemIndex?: number; description?: string } = {},
): NodeOperationError {
	return new NodeOperationError(node, message, options);
}

/** Which items of a batch of writes were recorded, and which were not sent, added to the error that stopped it. */
export function withBatchOutcome<T extends Error & { description?: string | null }>(
	error: T,
	outcome: { recorded: string[]; notSent: string[] },
): T {
	const recorded = outcome.recorded.length
		? `Recorded before it: ${outcome.recorded.join(', ')}.`
		: 'No item was recorded before it.';
	const notSent = outcome.notSent.length
		? ` Not sent: ${outcome.notSent.join(', ')}; run the node again for these items only.`
		: '';
	error.description = `${error.description ?? ''} ${recorded}${notSent}`.trim();
	return error;
}
