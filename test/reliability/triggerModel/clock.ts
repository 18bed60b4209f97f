import { Settings } from 'luxon';

// The one clock of a history: Date (the poll budget, the request policy, the pace, stored times) and
// luxon's Settings.now (the trigger's current month) read it, and nothing moves it but the history itself.
// Waits of the package (nodes/shared/wait, replaced by jest.mock in the test) move it instead of
// sleeping, so back-offs and budgets cost no real time.

let now = 0;
const realLuxonNow = Settings.now;

// Only Date is faked (Date.now and `new Date()`, which the trigger uses for stored times): timers
// stay real, so HTTP and its timeouts run as usual.
const REAL_APIS = [
	'hrtime',
	'nextTick',
	'performance',
	'queueMicrotask',
	'requestAnimationFrame',
	'cancelAnimationFrame',
	'requestIdleCallback',
	'cancelIdleCallback',
	'setImmediate',
	'clearImmediate',
	'setInterval',
	'clearInterval',
	'setTimeout',
	'clearTimeout',
] as const;

export const clock = {
	now: (): number => now,
	advance(ms: number): void {
		now += Math.max(0, ms);
		jest.setSystemTime(now);
	},
	/** From here on, Date (Date.now, `new Date()`) and luxon read the fake clock. */
	install(start: number): void {
		now = start;
		jest.useFakeTimers({ now: start, doNotFake: [...REAL_APIS] });
		Settings.now = () => now;
	},
	uninstall(): void {
		jest.useRealTimers();
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
