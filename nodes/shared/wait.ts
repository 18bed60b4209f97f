import { sleep } from 'n8n-workflow';

// n8n quirk Q11: docs/n8n-quirks.md
/** Waits `ms`, or rejects as soon as `signal` aborts (a stopped execution ends at once). */
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
