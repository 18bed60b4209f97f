import {
	NodeOperationError,
	sleepWithAbort,
	type IHttpRequestMethods,
	type INode,
} from 'n8n-workflow';

import {
	PartnerPayrollApiError,
	connectionError,
	setupError,
	uncertainWriteError,
	type ErrorContext,
} from './errors';

// The rules every request of the package follows, in one place (README: "Errors and retries").

/** Attempts per request in all, the first included. */
export const MAX_ATTEMPTS = 4;
/** A request with no byte for this long is given up (n8n's timeout is an idle timeout). */
export const ATTEMPT_TIMEOUT_MS = 25_000;
/** Attempts plus waits of one request never go past this. */
export const REQUEST_BUDGET_MS = 90_000;
/** The longest wait between attempts; a service asking for more gets an error at once. */
export const MAX_WAIT_MS = 30_000;
const FIRST_BACKOFF_MS = 1000;

/** Only a request that cannot take effect twice may be sent again after it may have reached the service. */
export function isIdempotent(method: IHttpRequestMethods | string | undefined): boolean {
	return ['GET', 'HEAD', 'OPTIONS'].includes(String(method ?? 'GET').toUpperCase());
}

export interface RequestPolicy {
	node: INode;
	method: IHttpRequestMethods | string | undefined;
	/** Overrides the method's rule for a POST that only reads (introspection). */
	idempotent?: boolean;
	errorContext?: ErrorContext;
	/** The execution's cancel signal: waits and requests stop when the user stops the execution. */
	signal?: AbortSignal;
	/** An earlier deadline of the caller (epoch ms), e.g. the trigger's poll budget. */
	deadline?: number;
}

/** What one attempt is allowed: n8n's `timeout` for it. */
export interface Attempt {
	number: number;
	timeoutMs: number;
}

// The connection was refused: nothing was sent, so even a write may be sent again.
const NOT_SENT_CODES = ['ECONNREFUSED'];
const DNS_CODES = ['ENOTFOUND', 'EAI_AGAIN'];

/**
 * Genuine transport failures, the only ones worth another attempt, in words: n8n replaces any
 * error message that contains a raw code with its own generic text.
 */
const TRANSPORT_FAILURES: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'connection reset',
	EPIPE: 'connection closed while sending',
	ETIMEDOUT: 'timed out',
	ECONNABORTED: 'timed out',
	ESOCKETTIMEDOUT: 'timed out',
	ERR_BAD_RESPONSE: 'answer cut off', // axios: the body stream was aborted mid-way
	ERR_STREAM_PREMATURE_CLOSE: 'answer cut off',
	UND_ERR_SOCKET: 'connection reset',
};
const TLS_CODE =
	/^(CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT|UNABLE_TO_)/;

type Failure =
	| { kind: 'answer'; error: PartnerPayrollApiError } // the service answered with an error
	| { kind: 'notSent'; reason: string }
	| { kind: 'lostAnswer'; reason: string; error?: PartnerPayrollApiError }
	| { kind: 'final'; error: Error };

interface ErrorLike {
	code?: unknown;
	message?: unknown;
	messages?: unknown;
	cause?: unknown;
}

/** The engine wraps transport errors (NodeApiError around AxiosError around a socket error). */
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

// Where the engine keeps only the message (NodeApiError without its cause), the message names the failure.
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

function hostOf(policy: RequestPolicy, error: unknown): string {
	const match = /(?:getaddrinfo \w+|connect \w+) ([^\s|]+)/.exec(messagesOf(error));
	return match?.[1] ?? 'the host of the API Base URL';
}

function classify(policy: RequestPolicy, error: unknown): Failure {
	const { node, errorContext = {} } = policy;
	const itemIndex = errorContext.itemIndex;
	if (error instanceof PartnerPayrollApiError && error.httpCode) {
		return { kind: 'answer', error };
	}
	if (error instanceof PartnerPayrollApiError && error.retryable) {
		return { kind: 'lostAnswer', reason: error.message, error };
	}
	if (error instanceof NodeOperationError || error instanceof PartnerPayrollApiError) {
		return { kind: 'final', error };
	}
	const code = codeOf(error);
	const messages = messagesOf(error);
	if (policy.signal?.aborted || code === 'ERR_CANCELED' || /cancel/i.test(String(code))) {
		return {
			kind: 'final',
			error: new NodeOperationError(node, 'The execution was cancelled', { itemIndex }),
		};
	}
	if (/OAuth credentials not connected/i.test(messages)) {
		return {
			kind: 'final',
			error: setupError(
				node,
				'The OAuth2 credential is not connected: click Connect',
				'Open the Partner Payroll OAuth2 credential and click "Connect my account"; a company administrator logs in and accepts.',
				itemIndex,
			),
		};
	}
	if (code && NOT_SENT_CODES.includes(code)) {
		return { kind: 'notSent', reason: TRANSPORT_FAILURES[code] };
	}
	if (code && code in TRANSPORT_FAILURES) {
		return { kind: 'lostAnswer', reason: TRANSPORT_FAILURES[code] };
	}
	if (code && DNS_CODES.includes(code)) {
		return {
			kind: 'final',
			error: setupError(
				node,
				`Cannot find the server ${hostOf(policy, error)}`,
				'Check the API Base URL and the Authorization Server URL of the credential, and that n8n can resolve host names.',
				itemIndex,
			),
		};
	}
	if (code && TLS_CODE.test(code)) {
		return {
			kind: 'final',
			error: setupError(
				node,
				'The secure connection to the Partner Payroll API failed',
				`The server certificate was not accepted (${code}). Check the API Base URL (https and host name).`,
				itemIndex,
			),
		};
	}
	if (code === 'ERR_INVALID_URL' || /Invalid URL/i.test(messages)) {
		return {
			kind: 'final',
			error: setupError(
				node,
				'The API Base URL of the credential is not a valid URL',
				'Use the address given by the provider, for example https://api.example.com/v1.',
				itemIndex,
			),
		};
	}
	return { kind: 'final', error: error instanceof Error ? error : new Error(String(error)) };
}

function budgetError(policy: RequestPolicy, last: string, ofCaller: boolean): NodeOperationError {
	const limit = ofCaller ? 'the time budget of this poll' : 'the time limit of this request';
	return new NodeOperationError(
		policy.node,
		`The Partner Payroll API did not answer within ${limit} (${last})`,
		{
			itemIndex: policy.errorContext?.itemIndex,
			description: `Attempts and waits of one request stop after ${REQUEST_BUDGET_MS / 1000} s, and a trigger poll ends within its own, shorter budget. Try again later.`,
		},
	);
}

function retryAfterTooLongError(policy: RequestPolicy, waitMs: number): NodeOperationError {
	const seconds = Math.ceil(waitMs / 1000);
	return new NodeOperationError(
		policy.node,
		`The Partner Payroll API asked to wait ${seconds} s before trying again`,
		{
			itemIndex: policy.errorContext?.itemIndex,
			description:
				`The service answered with Retry-After: ${seconds} s, longer than this node waits between attempts (${MAX_WAIT_MS / 1000} s). Run it again after that time. ${policy.errorContext?.rateLimitAdvice ?? ''}`.trim(),
		},
	);
}

/** Exponential backoff with jitter, so items that failed together do not come back together. */
function waitBefore(attempt: number, askedMs: number | undefined): number {
	const backoff = FIRST_BACKOFF_MS * 2 ** (attempt - 1);
	const base = askedMs ?? backoff;
	return Math.round(base + Math.random() * Math.min(base * 0.25, 1000));
}

/**
 * Sends a request under the package's rules: at most MAX_ATTEMPTS attempts within one time budget;
 * a retry only after a 429/5xx or a genuine transport failure; a write (POST) again only when the
 * service refused it (429) or the connection was refused before anything was sent. An error that
 * leaves here is final: no caller sends the same request again.
 */
export async function sendWithPolicy<T>(
	policy: RequestPolicy,
	send: (attempt: Attempt) => Promise<T>,
): Promise<T> {
	const ownDeadline = Date.now() + REQUEST_BUDGET_MS;
	const deadline = Math.min(policy.deadline ?? Infinity, ownDeadline);
	const ofCaller = deadline < ownDeadline;
	const idempotent = policy.idempotent ?? isIdempotent(policy.method);
	const context = policy.errorContext ?? {};
	let last = 'no attempt';
	for (let attempt = 1; ; attempt++) {
		const remaining = deadline - Date.now();
		if (remaining <= 0) throw budgetError(policy, last, ofCaller);
		let failure: Failure;
		try {
			return await send({ number: attempt, timeoutMs: Math.min(ATTEMPT_TIMEOUT_MS, remaining) });
		} catch (error) {
			failure = classify(policy, error);
		}
		if (failure.kind === 'final') throw failure.error;

		const answered = failure.kind === 'answer' ? failure.error : undefined;
		if (answered && !answered.retryable) throw answered;
		const refused = failure.kind === 'notSent' || answered?.httpCode === '429';
		if (!idempotent && !refused) {
			throw uncertainWriteError(
				policy.node,
				answered
					? `the service failed (HTTP ${answered.httpCode})`
					: `the connection failed (${failure.kind === 'answer' ? '' : failure.reason})`,
				context,
			);
		}
		const finalError =
			answered ??
			(failure.kind === 'lostAnswer' ? failure.error : undefined) ??
			connectionError(policy.node, failure.kind === 'answer' ? '' : failure.reason, context);
		finalError.retryable = false;
		if (attempt >= MAX_ATTEMPTS) throw finalError;

		const asked = answered?.retryAfterMs;
		if (asked !== undefined && asked > MAX_WAIT_MS) throw retryAfterTooLongError(policy, asked);
		const wait = waitBefore(attempt, asked);
		last = finalError.message;
		if (Date.now() + wait >= deadline) throw budgetError(policy, last, ofCaller);
		try {
			await sleepWithAbort(wait, policy.signal);
		} catch {
			throw new NodeOperationError(policy.node, 'The execution was cancelled', {
				itemIndex: context.itemIndex,
			});
		}
	}
}
