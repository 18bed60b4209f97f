import type { IN8nHttpFullResponse } from 'n8n-workflow';

import { wait } from './wait';

// The pace of each client application at the service's per-second limit, reads and writes apart,
// shared by every request of this n8n process; why it counts as it does: docs/errors-and-retries.md.

export type RequestKind = 'read' | 'write';

/** Slots left free in each second: the service's clock may differ a little from this machine's. */
const SAFETY_MARGIN = 2;
/**
 * A slot not used for a request within this time was given up (the caller was cancelled or ran out of
 * time between its slot and its request): it no longer holds a place in new seconds.
 */
const UNSENT_SLOT_MS = 1_000;
/**
 * A second with a 429 widens the margin by this much (once, however many 429s: the items in flight when
 * another process filled the second come back refused together); each quiet second narrows it again by
 * one slot, so a process left alone returns to the whole limit within seconds.
 */
const MARGIN_STEP = 2;
const QUIET_PERIOD_MS = 1_000;

export interface Clock {
	now(): number;
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

interface Lane {
	/** The limit per second the service announced; unknown until an answer says it. */
	limit?: number;
	/** The service's window: one wall-clock second. */
	second: number;
	/** Slots taken in that second. */
	taken: number;
	/** Requests on their way when that second started, which the service may count in it. */
	carried: number;
	/** What the service said it counted in that second (other processes too), plus slots taken since. */
	counted: number;
	/** When each slot not yet used for a request was taken. */
	unsent: number[];
	/** Requests sent and not yet answered. */
	inTransit: number;
	margin: number;
	lastRefusal: number;
	/** The last second whose 429s widened the margin. */
	widenedSecond: number;
}

function header(response: Pick<IN8nHttpFullResponse, 'headers'>, name: string): string | undefined {
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

export class Pacer {
	private readonly lanes = new Map<string, Lane>();

	constructor(private readonly clock: Clock = { now: () => Date.now(), sleep: wait }) {}

	private laneOf(application: string, kind: RequestKind): Lane {
		const key = `${kind} ${application}`;
		let lane = this.lanes.get(key);
		if (!lane) {
			lane = {
				second: 0,
				taken: 0,
				carried: 0,
				counted: 0,
				unsent: [],
				inTransit: 0,
				margin: SAFETY_MARGIN,
				lastRefusal: 0,
				widenedSecond: 0,
			};
			this.lanes.set(key, lane);
		}
		return lane;
	}

	/** Moves the lane to the second of `now`, which starts with the requests still on their way. */
	private enterSecondOf(lane: Lane, now: number) {
		const second = Math.floor(now / 1000);
		if (second === lane.second) return;
		lane.second = second;
		lane.unsent = lane.unsent.filter((taken) => now - taken < UNSENT_SLOT_MS);
		lane.taken = 0;
		lane.carried = lane.unsent.length + lane.inTransit;
		lane.counted = 0;
	}

	/** Waits for a slot of the application's pace: within the learned limit of the current second. */
	async takeSlot(
		application: string,
		kind: RequestKind,
		options: { signal?: AbortSignal } = {},
	): Promise<void> {
		const lane = this.laneOf(application, kind);
		for (;;) {
			const now = this.clock.now();
			this.enterSecondOf(lane, now);
			// Requests counted in this second: ours, or what the service counted when that is more.
			const used = Math.max(lane.taken + lane.carried, lane.counted);
			if (lane.limit === undefined || used < lane.limit - lane.margin) break;
			// The next second opens new slots: wait for it, a little after, spread out.
			await this.clock.sleep(1000 - (now % 1000) + Math.floor(Math.random() * 20), options.signal);
		}
		lane.taken++;
		lane.counted++;
		lane.unsent.push(this.clock.now());
	}

	/** `takeSlot`, then `sending`: for a request that is sent as soon as it has its slot. */
	async takeSlotToSend(
		application: string,
		kind: RequestKind,
		options: { signal?: AbortSignal } = {},
	): Promise<(answer?: Pick<IN8nHttpFullResponse, 'headers'>) => void> {
		await this.takeSlot(application, kind, options);
		return this.sending(application, kind);
	}

	/**
	 * A request that took its slot is being sent now. Call the returned function once, with its answer
	 * when one came, as soon as it is answered or failed: until then it holds a place in every new second.
	 */
	sending(
		application: string,
		kind: RequestKind,
	): (answer?: Pick<IN8nHttpFullResponse, 'headers'>) => void {
		const lane = this.laneOf(application, kind);
		this.enterSecondOf(lane, this.clock.now());
		lane.unsent.shift();
		lane.inTransit++;
		const sentIn = lane.second;
		let answered = false;
		return (answer) => {
			if (answered) return;
			answered = true;
			// Entering a new second first: the request counts in it, it may have arrived there.
			this.enterSecondOf(lane, this.clock.now());
			lane.inTransit--;
			// The service counts a request before it answers: an answer dated in an earlier second was
			// counted there, not in this one.
			const dated = Date.parse((answer && header(answer, 'date')) ?? '');
			if (lane.second > sentIn && Math.floor(dated / 1000) < lane.second) {
				lane.carried = Math.max(lane.carried - 1, 0);
			}
		};
	}

	/** Learns the limit and what remains of this second from any answer; a 429 slows the pace. */
	learn(
		application: string,
		kind: RequestKind,
		response: Pick<IN8nHttpFullResponse, 'headers' | 'statusCode'>,
	) {
		const limit = Number(header(response, 'x-ratelimit-limit-second'));
		if (!Number.isInteger(limit) || limit <= 0) return;
		const lane = this.laneOf(application, kind);
		const now = this.clock.now();
		lane.limit = limit;
		this.enterSecondOf(lane, now);
		const remaining = Number(header(response, 'x-ratelimit-remaining-second'));
		// Other executions and processes of the same application count too.
		if (Number.isFinite(remaining)) lane.counted = Math.max(lane.counted, limit - remaining);
		if (response.statusCode === 429) {
			lane.counted = Math.max(lane.counted, limit);
			if (lane.second !== lane.widenedSecond) {
				lane.margin = Math.min(lane.margin + MARGIN_STEP, Math.floor(limit / 2));
				lane.widenedSecond = lane.second;
			}
			lane.lastRefusal = now;
		} else if (lane.margin > SAFETY_MARGIN && now - lane.lastRefusal > QUIET_PERIOD_MS) {
			lane.margin--;
			lane.lastRefusal = now;
		}
	}
}

/** The pace of this n8n process: one per application, shared by every node and trigger of the package. */
export const processPacer = new Pacer();
