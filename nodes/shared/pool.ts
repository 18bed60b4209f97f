/**
 * Runs `work` on every entry, at most `limit` at once, starting them in order. When `work` answers
 * false, no further entry starts (those already started finish). Resolves whether every entry ran.
 */
export async function inPool<T>(
	entries: readonly T[],
	limit: number,
	work: (entry: T) => Promise<boolean>,
): Promise<boolean> {
	let next = 0;
	let stopped = false;
	const worker = async () => {
		while (!stopped && next < entries.length) {
			const entry = entries[next++];
			if (!(await work(entry))) stopped = true;
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, entries.length)) }, worker));
	return !stopped;
}
