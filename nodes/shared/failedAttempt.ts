import { NodeOperationError, type INode } from 'n8n-workflow';

import { CompanyRefusal } from '../../credentials/companyRequests';
import {
	PartnerPayrollApiError,
	TRANSPORT_FAILURES,
	connectionError,
	type LostAnswer,
} from './apiError';
import { failureError, type ErrorContext, type Failure as ReportedFailure } from './errors';

// What a failed attempt of a request was: n8n hands transport failures over in many shapes (an API
// error around an HTTP client error around a socket error, or its messages only); the request policy
// reads them here and decides with the answer.

/** A failed attempt: the error the user reads if it is the last, and what it says about sending again. */
export interface FailedAttempt {
	error: Error;
	/** The same request may succeed when sent again (429, 5xx, a lost answer). */
	retry: boolean;
	/** What happened to a write that may have reached the service (it is then never sent again). */
	unknownOutcome?: { httpCode: string } | LostAnswer;
}

const TLS_CODE =
	/^(CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT|UNABLE_TO_)/;

interface ErrorLike {
	code?: unknown;
	message?: unknown;
	messages?: unknown;
	cause?: unknown;
}

/** n8n wraps transport errors (NodeApiError around AxiosError around a socket error). */
function causes(error: unknown): ErrorLike[] {
	const chain: ErrorLike[] = [];
	let current = error as ErrorLike | undefined;
	while (current && typeof current === 'object' && chain.length < 6 && !chain.includes(current)) {
		chain.push(current);
		current = current.cause as ErrorLike | undefined;
	}
	return chain;
}

function messagesOf(error: unknown): string {
	return causes(error)
		.flatMap((link) => [link.message, ...(Array.isArray(link.messages) ? link.messages : [])])
		.filter((message): message is string => typeof message === 'string')
		.join(' | ');
}

// n8n's helper often keeps only the messages of a transport error (NodeApiError without its cause),
// and those name the failure.
// n8n quirk Q15: docs/n8n-quirks.md
const CODES_BY_MESSAGE: Array<[RegExp, string]> = [
	[/\b(E[A-Z]{3,}|ERR_[A-Z_]+)\b/, '$1'],
	[/socket hang up/i, 'ECONNRESET'],
	[/stream has been aborted|^aborted$|\| aborted\b/i, 'ERR_BAD_RESPONSE'],
	[/timeout of \d+ms exceeded/i, 'ECONNABORTED'],
	[/^canceled$|\bcanceled\b/i, 'ERR_CANCELED'],
];

function codeOf(error: unknown): string | undefined {
	for (const link of causes(error)) {
		if (typeof link.code === 'string' && link.code) return link.code;
	}
	const messages = messagesOf(error);
	for (const [pattern, code] of CODES_BY_MESSAGE) {
		const match = pattern.exec(messages);
		if (match) return code.startsWith('$') ? match[1] : code;
	}
	return undefined;
}

const hostOf = (error: unknown) =>
	/(?:getaddrinfo \w+|connect \w+) ([^\s|]+)/.exec(messagesOf(error))?.[1];

/** What `classify` reads of a request's policy. */
interface ClassifiedRequest {
	node: INode;
	errorContext?: ErrorContext;
	signal?: AbortSignal;
}

/** What one failed attempt says: final or worth sending again, and whether a write may have been recorded. */
export function classify(
	policy: ClassifiedRequest,
	error: unknown,
	stalled: boolean,
): FailedAttempt {
	const final = (failure: ReportedFailure, values: Record<string, string | undefined> = {}) => ({
		error: failureError(policy.node, failure, values, policy.errorContext?.itemIndex),
		retry: false,
	});
	// The Partner API credential refused to send a token (a company not in its list, a broken row, a
	// path of another company): nothing was sent, and sending again changes nothing.
	if (error instanceof CompanyRefusal)
		return final('partnerCompanyList', { problem: error.problem });
	if (error instanceof PartnerPayrollApiError && error.httpCode) {
		// A 5xx may come after the service recorded a write; a 429 says it refused it.
		const mayHaveRecorded = error.retryable && error.httpCode !== '429';
		return {
			error,
			retry: error.retryable,
			unknownOutcome: mayHaveRecorded ? { httpCode: error.httpCode } : undefined,
		};
	}
	// A connection error raised while the answer was read (a file cut off mid-way).
	if (error instanceof PartnerPayrollApiError && error.retryable) {
		return {
			error,
			retry: true,
			unknownOutcome: { reason: `the connection failed (${error.message})` },
		};
	}
	// The package's own errors say themselves what happened (a local check, an answer that is not the API's).
	if (error instanceof NodeOperationError || error instanceof PartnerPayrollApiError) {
		return { error, retry: false };
	}
	const code = codeOf(error);
	if (policy.signal?.aborted || /cancel/i.test(String(code))) {
		return { ...final('cancelled'), unknownOutcome: { reason: 'the execution was cancelled' } };
	}
	if (/OAuth credentials not connected/i.test(messagesOf(error)))
		return final('oAuth2NotConnected');
	const transport = code === undefined ? undefined : TRANSPORT_FAILURES[code];
	if (transport) {
		// An answer that stopped arriving until the timeout ended it stalled: it timed out.
		const lost = { code: transport.sent && stalled ? 'ETIMEDOUT' : (code as string) };
		return {
			error: connectionError(policy.node, lost, policy.errorContext),
			retry: true,
			unknownOutcome: transport.sent ? lost : undefined,
		};
	}
	if (code === 'ENOTFOUND') return final('hostNotFound', { host: hostOf(error) });
	if (code && TLS_CODE.test(code)) return final('tls', { code });
	if (code === 'ERR_INVALID_URL' || /Invalid URL/i.test(messagesOf(error)))
		return final('invalidUrl');
	// Anything else (an answer that cannot be parsed, a failed redirect...) may have happened after sending.
	const unknown = error instanceof Error ? error : new Error(String(error));
	return {
		error: unknown,
		retry: false,
		unknownOutcome: { reason: `the request failed (${unknown.message})` },
	};
}
