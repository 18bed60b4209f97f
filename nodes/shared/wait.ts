import { sleep } from 'n8n-workflow';

// Waiting that a stopped execution ends at once. n8n-workflow's own `sleepWithAbort` is gone from
// the n8n-workflow of n8n 2.40; `sleep` is exported by every supported version.

// n8n quirk Q11: docs/n8n-quirks.md
/** Waits `ms`, or rejects as soon as `signal` aborts. */
export async function wait(ms: number, signal?: AbortSignal): Promise<void> {
	if (signal?.aborted) throw new Error('aborted');
	await new Promise<void>((resolve, reject) => {
		const onAbort = () => reject(new Error('aborted'));
		signal?.addEventListener('abort', onAbort, { once: true });
		void sleep(ms).then(() => {
			signal?.removeEventListener('abort', onAbort);
			resolve();
		});
	});
}
