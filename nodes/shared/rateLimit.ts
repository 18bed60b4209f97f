import type { IN8nHttpFullResponse } from 'n8n-workflow';

// What an answer of the service says about pacing: how long it asks to wait before the next attempt.

function header(response: IN8nHttpFullResponse, name: string): string | undefined {
	const value = response.headers?.[name];
	return value === undefined || value === null ? undefined : String(value);
}

/** The wait the service asks for (Retry-After in seconds or as a date), if it asks. */
export function askedWaitMs(response: IN8nHttpFullResponse): number | undefined {
	const retryAfter = header(response, 'retry-after');
	if (retryAfter !== undefined) {
		const seconds = Number(retryAfter);
		const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
		if (Number.isFinite(ms)) return Math.max(ms, 0);
	}
	// Without Retry-After, the service's per-second window tells when a slot frees up.
	return header(response, 'x-ratelimit-remaining-second') === '0' ? 1000 : undefined;
}
