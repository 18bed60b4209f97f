import {
	NodeOperationError,
	type IHttpRequestMethods,
	type IN8nHttpFullResponse,
	type INode,
} from 'n8n-workflow';

import { CompanyRefusal } from '../../credentials/companyRequests';
import {
	PartnerPayrollApiError,
	TRANSPORT_FAILURES,
	connectionError,
	uncertainWriteError,
	type LostAnswer,
} from './apiError';
import { failureError, type ErrorContext, type Failure } from './errors';
import { processPacer, type RequestKind } from './rateLimit';
import { wait } from './wait';

// The rules every request of the package follows, in one place (README: "Errors and retries").

/**
 * The package's one read/write rule: GET and HEAD read, every other method writes. The service
 * counts them apart (pacing), and only a read may be sent again once it may have arrived (retry).
 */
export const isRead = (method: string | undefined): boolean =>
	['GET', 'HEAD'].includes(String(method ?? 'GET').toUpperCase());

/** Attempts per request in all, the first included. */
const MAX_ATTEMPTS = 4;
/** An attempt with no byte for this long is given up (n8n's timeout is an idle timeout), unless the user set a Timeout. */
const ATTEMPT_TIMEOUT_MS = 25_000;
/** Attempts plus waits of one request never go past this, or MAX_ATTEMPTS user Timeouts when longer. */
const REQUEST_BUDGET_MS = 90_000;
/** The longest wait between attempts; a service asking for more gets an error at once. */
const MAX_WAIT_MS = 30_000;
const FIRST_BACKOFF_MS = 1000;
/** An attempt that ended this close to its timeout stalled: its answer stopped coming, it timed out. */
const STALL_MARGIN_MS = 100;

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
	/** Whose pace every attempt follows. */
	application?: string;
}

/**
 * How one attempt is sent: n8n's request helper and the arguments around the options (n8n's helpers
 * differ in them: the transport pairs each with its own); each attempt adds its own `timeout`.
 */
export interface Sending {
	helper: (...args: never[]) => Promise<unknown>;
	thisArg: unknown;
	before?: unknown[];
	options: object;
	after?: unknown[];
}

function budgetError(policy: RequestPolicy, last: string, ofCaller: boolean) {
	const { timeoutAdvice, itemIndex } = policy.errorContext ?? {};
	const values = { last, budget: requestBudgetMs(policy) / 1000, timeoutAdvice };
	const failure = ofCaller ? 'pollRequestBudget' : 'requestBudget';
	return failureError(policy.node, failure, values, itemIndex);
}

function requestBudgetMs(policy: RequestPolicy): number {
	return Math.max(REQUEST_BUDGET_MS, MAX_ATTEMPTS * (policy.attemptTimeoutMs ?? 0));
}

const cancelled = (policy: RequestPolicy) =>
	failureError(policy.node, 'cancelled', {}, policy.errorContext?.itemIndex);

type Answered = (answer?: IN8nHttpFullResponse) => void;

/** A slot of the application's pace, held by the attempt until it is answered or failed. */
async function takeSlotOf(policy: RequestPolicy): Promise<Answered> {
	const { application } = policy;
	if (application === undefined) return () => {};
	const kind: RequestKind = isRead(policy.method) ? 'read' : 'write';
	const answered = await processPacer
		.takeSlotToSend(application, kind, { signal: policy.signal })
		.catch(() => {
			throw cancelled(policy);
		});
	return (answer) => {
		answered(answer);
		if (answer) processPacer.learn(application, kind, answer);
	};
}

/** One attempt: n8n's helper with the attempt's timeout, under the slot; the answer is read inside it. */
async function sendAttempt<T>(
	sending: Sending,
	timeoutMs: number,
	answered: Answered,
	answer: (response: IN8nHttpFullResponse) => Promise<T>,
): Promise<T> {
	const { before = [], after = [] } = sending;
	const args = [...before, { ...sending.options, timeout: timeoutMs }, ...after];
	const sent = sending.helper.apply(sending.thisArg, args as never[]);
	const response = await (sent as Promise<IN8nHttpFullResponse>).catch((error: unknown) => {
		answered();
		throw error;
	});
	answered(response);
	return await answer(response);
}

/** A failed attempt: the error the user reads if it is the last, and what it says about sending again. */
interface FailedAttempt {
	error: Error;
	/** The same request may succeed when sent again (429, 5xx, a lost answer). */
	retry: boolean;
	/** What happened to a write that may have reached the service (it is then never sent again). */
	unknownOutcome?: { httpCode: string } | LostAnswer;
}

const TLS_CODE =
	/^(CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT|UNABLE_TO_)/;

type ErrorLike = { code?: unknown; message?: unknown; messages?: unknown; cause?: unknown };

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

/** What one failed attempt says: final or worth sending again, and whether a write may have been recorded. */
function classify(policy: RequestPolicy, error: unknown, stalled: boolean): FailedAttempt {
	const final = (failure: Failure, values: Record<string, string | undefined> = {}) => ({
		error: failureError(policy.node, failure, values, policy.errorContext?.itemIndex),
		retry: false,
	});
	// The Partner API credential refused to send a token (a company not in its list, a broken row, a
	// path of another company): nothing was sent, and sending again changes nothing.
	if (error instanceof CompanyRefusal)
		return final('partnerCompanyList', { problem: error.problem });
	if (error instanceof PartnerPayrollApiError && error.retryable) {
		// A 429 says the service refused the request; a 5xx, or a connection error raised while the
		// answer was read (a file cut off mid-way), may come after it recorded a write.
		const { httpCode, message } = error;
		if (httpCode === '429') return { error, retry: true };
		const unknownOutcome = httpCode
			? { httpCode }
			: { reason: `the connection failed (${message})` };
		return { error, retry: true, unknownOutcome };
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

/** Exponential backoff with jitter, so items that failed together do not come back together. */
function waitBefore(attempt: number, askedMs: number | undefined): number {
	const base = askedMs ?? FIRST_BACKOFF_MS * 2 ** (attempt - 1);
	return Math.round(base + Math.random() * Math.min(base * 0.25, 1000));
}

/**
 * Sends a request under the package's rules: at most MAX_ATTEMPTS attempts within one time budget;
 * a retry only after a 429/5xx or a genuine transport failure; a write (POST) again only when the
 * service refused it (429) or the connection was refused before anything was sent. `answer` reads a
 * success inside its attempt. An error that leaves here is final: no caller sends the same request again.
 */
export async function sendWithPolicy<T>(
	policy: RequestPolicy,
	sending: Sending,
	answer: (response: IN8nHttpFullResponse) => Promise<T>,
): Promise<T> {
	// Waiting for the first slot of the pace is not part of the request's time budget: with many
	// items, the pace itself decides when each is sent.
	let answered: Answered | undefined = await takeSlotOf(policy);
	const ownDeadline = Date.now() + requestBudgetMs(policy);
	const attemptTimeoutMs = policy.attemptTimeoutMs || ATTEMPT_TIMEOUT_MS;
	const deadline = Math.min(policy.deadline ?? Infinity, ownDeadline);
	const ofCaller = deadline < ownDeadline;
	const idempotent = policy.idempotent ?? isRead(policy.method);
	const context = policy.errorContext ?? {};
	let last = 'no attempt';
	for (let attempt = 1; ; attempt++) {
		const remaining = deadline - Date.now();
		if (remaining <= 0 || policy.signal?.aborted) answered?.();
		if (remaining <= 0) throw budgetError(policy, last, ofCaller);
		if (policy.signal?.aborted) throw cancelled(policy);
		let failure: FailedAttempt;
		const timeoutMs = Math.min(attemptTimeoutMs, remaining);
		const started = Date.now();
		try {
			answered ??= await takeSlotOf(policy);
			return await sendAttempt(sending, timeoutMs, answered, answer);
		} catch (error) {
			failure = classify(policy, error, Date.now() - started >= timeoutMs - STALL_MARGIN_MS);
		}
		answered = undefined;
		if (!idempotent && failure.unknownOutcome) {
			throw uncertainWriteError(policy.node, failure.unknownOutcome, context);
		}
		const { error } = failure;
		// Final from here on: an outer request (a listing around its files) must not send it again.
		if (error instanceof PartnerPayrollApiError) error.retryable = false;
		if (!failure.retry || attempt >= (policy.attempts ?? MAX_ATTEMPTS)) throw error;

		const asked = error instanceof PartnerPayrollApiError ? error.retryAfterMs : undefined;
		if (asked !== undefined && asked > MAX_WAIT_MS) {
			const seconds = Math.ceil(asked / 1000);
			const values = { seconds, maxWait: MAX_WAIT_MS / 1000, advice: context.rateLimitAdvice };
			throw failureError(policy.node, 'retryAfterTooLong', values, context.itemIndex);
		}
		const pause = waitBefore(attempt, asked);
		last = error.message;
		if (Date.now() + pause >= deadline) throw budgetError(policy, last, ofCaller);
		await wait(pause, policy.signal).catch(() => {
			throw cancelled(policy);
		});
	}
}
