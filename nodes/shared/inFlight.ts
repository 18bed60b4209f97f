// What this process is still handing to n8n (a delivery, a company's connection change): a copy that
// arrives meanwhile is answered "retry later" rather than started twice.

/** Anything handed to n8n longer than this is forgotten (Svix gives up on an answer after 15 s). */
export const IN_FLIGHT_MAX_MS = 60_000;

/** Whether `key` is still being handed over (`since`: key → since when, ms); older entries are forgotten. */
export function isInFlight(since: Map<string, number>, key: string, nowMs: number): boolean {
	const start = since.get(key);
	if (start === undefined) return false;
	if (nowMs - start <= IN_FLIGHT_MAX_MS) return true;
	since.delete(key);
	return false;
}
