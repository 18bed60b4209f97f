import { Settings } from 'luxon';

// The one clock of a history: Date.now (the poll budget, the request policy, the pace) and luxon's
// Settings.now (the trigger's current month) read it, and nothing moves it but the history itself.
// Waits of the package (nodes/shared/wait, replaced by jest.mock in the test) move it instead of
// sleeping, so back-offs and budgets cost no real time.

let now = 0;
const realDateNow = Date.now;
const realLuxonNow = Settings.now;

export const clock = {
	now: (): number => now,
	set(ms: number): void {
		now = ms;
	},
	advance(ms: number): void {
		now += Math.max(0, ms);
	},
	/** From here on, Date.now and luxon read the fake clock. */
	install(start: number): void {
		now = start;
		Date.now = () => now;
		Settings.now = () => now;
	},
	uninstall(): void {
		Date.now = realDateNow;
		Settings.now = realLuxonNow;
	},
};

/**
 * What `wait(ms, signal)` does under the model: the clock moves on by `ms`, rounded up to whole
 * seconds so a history's clock stays on whole seconds (the request policy adds a random jitter below
 * one second; rounding makes a history replay the same).
 */
export async function fakeWait(ms: number, signal?: AbortSignal): Promise<void> {
	if (signal?.aborted) throw new Error('aborted');
	clock.advance(Math.ceil(ms / 1000) * 1000);
}
