import { NodeOperationError, type IHttpRequestMethods, type INode } from 'n8n-workflow';

import {
	PartnerPayrollApiError,
	connectionError,
	uncertainWriteError,
	type LostAnswer,
} from './apiError';
import { failureError, type ErrorContext, type Failure as ReportedFailure } from './errors';
import { isRead, kindOf, processPacer } from './rateLimit';
import { wait } from './wait';

// The rules every request of the package follows, in one place (README: "Errors and retries").

/** Attempts per request in all, the first included. */
const MAX_ATTEMPTS = 4;
/** An attempt with no byte for this long is given up (n8n's timeout is an idle timeout), unless the user set a Timeout. */
const ATTEMPT_TIMEOUT_MS = 25_000;
/** Attempts plus waits of one request never go past this, or MAX_ATTEMPTS user Timeouts when longer. */
const REQUEST_BUDGET_MS = 90_000;
/** The longest wait between attempts; a service asking for more gets an error at once. */
const MAX_WAIT_MS = 30_000;
const FIRST_BACKOFF_MS = 1000;

interface RequestPolicy {
	node: INode;
	method: IHttpRequestMethods | string | undefined;
	/** Overrides the method's rule for a POST that only reads (introspection). */
	idempotent?: boolean;
	errorContext?: ErrorContext;
	/** The execution's cancel signal: waits and requests stop when the user stops the execution. */
	signal?: AbortSignal;
	/** An earlier deadline of the caller (epoch ms), e.g. the trigger's poll budget. */
	deadline?: number;
	/** The Timeout the user set (Request Options): the time one attempt may take. */
	attemptTimeoutMs?: number;
	/** Fewer attempts than MAX_ATTEMPTS (a credential Test). */
	attempts?: number;
	/** The application whose pace every attempt follows. */
	pace?: { application: string };
}

/** What one attempt is allowed: n8n's `timeout` for it. */
interface Attempt {
	number: number;
	timeoutMs: number;
}

// Nothing was sent (the connection was refused, a name lookup failed for now), so even a write may
// be sent again.
const NOT_SENT_CODES = ['ECONNREFUSED', 'EAI_AGAIN'];
const DNS_CODES = ['ENOTFOUND'];
/** Genuine transport failures, the only ones worth another attempt. */
const LOST_ANSWER_CODES = [
	'ECONNRESET',
	'UND_ERR_SOCKET',
	'EPIPE',
	'ETIMEDOUT',
	'ECONNABORTED',
	'ESOCKETTIMEDOUT',
	'ERR_BAD_RESPONSE', // axios: the body stream was aborted mid-way
	'ERR_STREAM_PREMATURE_CLOSE',
];
const TLS_CODE =
	/^(CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT|UNABLE_TO_)/;

type Failure =
	| { kind: 'answer'; error: PartnerPayrollApiError } // the service answered with an error
	| { kind: 'notSent'; lost: LostAnswer }
	| { kind: 'lostAnswer'; lost: LostAnswer; error?: PartnerPayrollApiError }
	// `sentNothing`: known to have failed before the request left (a write needs no warning)
	| { kind: 'final'; error: Error; sentNothing: boolean };

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

function hostOf(error: unknown): string | undefined {
	return /(?:getaddrinfo \w+|connect \w+) ([^\s|]+)/.exec(messagesOf(error))?.[1];
}

function classify(policy: RequestPolicy, error: unknown): Failure {
	const { node, errorContext = {} } = policy;
	const itemIndex = errorContext.itemIndex;
	const final = (failure: ReportedFailure, values: Record<string, string | undefined> = {}) =>
		({
			kind: 'final',
			error: failureError(node, failure, values, itemIndex),
			sentNothing: failure !== 'cancelled',
		}) as const;
	if (error instanceof PartnerPayrollApiError && error.httpCode) {
		return { kind: 'answer', error };
	}
	if (error instanceof PartnerPayrollApiError && error.retryable) {
		return {
			kind: 'lostAnswer',
			lost: { reason: `the connection failed (${error.message})` },
			error,
		};
	}
	// The package's own errors say themselves what happened (a local check, an answer that is not the API's).
	if (error instanceof NodeOperationError || error instanceof PartnerPayrollApiError) {
		return { kind: 'final', error, sentNothing: true };
	}
	const code = codeOf(error);
	if (policy.signal?.aborted || code === 'ERR_CANCELED' || /cancel/i.test(String(code))) {
		return final('cancelled');
	}
	if (/OAuth credentials not connected/i.test(messagesOf(error)))
		return final('oAuth2NotConnected');
	if (code && NOT_SENT_CODES.includes(code)) return { kind: 'notSent', lost: { code } };
	if (code && LOST_ANSWER_CODES.includes(code)) return { kind: 'lostAnswer', lost: { code } };
	if (code && DNS_CODES.includes(code)) return final('hostNotFound', { host: hostOf(error) });
	if (code && TLS_CODE.test(code)) return final('tls', { code });
	if (code === 'ERR_INVALID_URL' || /Invalid URL/i.test(messagesOf(error))) {
		return final('invalidUrl');
	}
	// Anything else (an answer that cannot be parsed, a failed redirect...) may have happened after sending.
	return {
		kind: 'final',
		error: error instanceof Error ? error : new Error(String(error)),
		sentNothing: false,
	};
}

function budgetError(policy: RequestPolicy, lastFailure: string, ofCaller: boolean) {
	return failureError(
		policy.node,
		ofCaller ? 'pollRequestBudget' : 'requestBudget',
		{
			last: lastFailure,
			budget: requestBudgetMs(policy) / 1000,
			timeoutAdvice: policy.errorContext?.timeoutAdvice,
		},
		policy.errorContext?.itemIndex,
	);
}

function requestBudgetMs(policy: RequestPolicy): number {
	return Math.max(REQUEST_BUDGET_MS, MAX_ATTEMPTS * (policy.attemptTimeoutMs ?? 0));
}

/** A slot of the application's pace, when the request follows one. */
async function takeSlotOf(policy: RequestPolicy): Promise<void> {
	if (!policy.pace) return;
	try {
		await processPacer.takeSlot(policy.pace.application, kindOf(policy.method), {
			signal: policy.signal,
		});
	} catch {
		throw failureError(policy.node, 'cancelled', {}, policy.errorContext?.itemIndex);
	}
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
	// Waiting for the first slot of the pace is not part of the request's time budget: with many
	// items, the pace itself decides when each is sent.
	await takeSlotOf(policy);
	const ownDeadline = Date.now() + requestBudgetMs(policy);
	const attemptTimeoutMs = policy.attemptTimeoutMs || ATTEMPT_TIMEOUT_MS;
	const deadline = Math.min(policy.deadline ?? Infinity, ownDeadline);
	const ofCaller = deadline < ownDeadline;
	const idempotent = policy.idempotent ?? isRead(policy.method);
	const context = policy.errorContext ?? {};
	let last = 'no attempt';
	for (let attempt = 1; ; attempt++) {
		const remaining = deadline - Date.now();
		if (remaining <= 0) throw budgetError(policy, last, ofCaller);
		if (policy.signal?.aborted) throw failureError(policy.node, 'cancelled', {}, context.itemIndex);
		let failure: Failure;
		const timeoutMs = Math.min(attemptTimeoutMs, remaining);
		const started = Date.now();
		try {
			if (attempt > 1) await takeSlotOf(policy);
			return await send({ number: attempt, timeoutMs });
		} catch (error) {
			failure = classify(policy, error);
		}
		// An answer that stopped arriving until the timeout ended it stalled: it timed out.
		if (failure.kind === 'lostAnswer' && 'code' in failure.lost) {
			if (Date.now() - started >= timeoutMs - 100) failure.lost = { code: 'ETIMEDOUT' };
		}
		if (failure.kind === 'final') {
			if (idempotent || failure.sentNothing) throw failure.error;
			const reason = `the request failed (${failure.error.message})`;
			throw uncertainWriteError(policy.node, { reason }, context);
		}

		const answered = failure.kind === 'answer' ? failure.error : undefined;
		if (answered && !answered.retryable) throw answered;
		const refused = failure.kind === 'notSent' || answered?.httpCode === '429';
		if (!idempotent && !refused) {
			throw uncertainWriteError(
				policy.node,
				failure.kind === 'answer' ? { httpCode: String(failure.error.httpCode) } : failure.lost,
				context,
			);
		}
		const finalError =
			answered ??
			(failure.kind === 'lostAnswer' ? failure.error : undefined) ??
			connectionError(
				policy.node,
				failure.kind === 'answer' ? { reason: '' } : failure.lost,
				context,
			);
		finalError.retryable = false;
		if (attempt >= (policy.attempts ?? MAX_ATTEMPTS)) throw finalError;

		const asked = answered?.retryAfterMs;
		if (asked !== undefined && asked > MAX_WAIT_MS) {
			throw failureError(
				policy.node,
				'retryAfterTooLong',
				{
					seconds: Math.ceil(asked / 1000),
					maxWait: MAX_WAIT_MS / 1000,
					advice: context.rateLimitAdvice,
				},
				context.itemIndex,
			);
		}
		const pause = waitBefore(attempt, asked);
		last = finalError.message;
		if (Date.now() + pause >= deadline) throw budgetError(policy, last, ofCaller);
		try {
			await wait(pause, policy.signal);
		} catch {
			throw failureError(policy.node, 'cancelled', {}, context.itemIndex);
		}
	}
}
