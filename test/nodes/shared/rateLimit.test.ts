import { Pacer, type Clock } from '../../../nodes/shared/rateLimit';

// The pace of one n8n process, on a clock the test moves: time passes only when the pacer waits.

class TestClock implements Clock {
	time = Date.parse('2026-11-23T10:00:00.000Z');

	waits: number[] = [];

	now(): number {
		return this.time;
	}

	async sleep(ms: number): Promise<void> {
		this.waits.push(ms);
		this.time += ms;
	}
}

const APP = 'https://api.example.com/v1 client n8n';
const answer = (limit: number, remaining: number, statusCode = 200) => ({
	statusCode,
	headers: {
		'x-ratelimit-limit-second': String(limit),
		'x-ratelimit-remaining-second': String(remaining),
	},
});

/**
 * Takes `count` slots one after the other, each sent and answered at once (a request that takes no
 * time); returns in which second of the clock (counted from the start's) each was given, as the
 * service counts them. (Counted from the start instant instead, a start late in a second and a wait
 * with no jitter would put the next second's first slot in second 0.)
 */
async function secondsOfSlots(
	pacer: Pacer,
	clock: TestClock,
	count: number,
	kind: 'read' | 'write' = 'read',
) {
	const startSecond = Math.floor(clock.now() / 1000);
	const seconds: number[] = [];
	for (let index = 0; index < count; index++) {
		await pacer.takeSlot(APP, kind);
		pacer.sending(APP, kind)();
		seconds.push(Math.floor(clock.now() / 1000) - startSecond);
	}
	return seconds;
}

const perSecond = (seconds: number[]) =>
	seconds.reduce<number[]>((counts, second) => {
		counts[second] = (counts[second] ?? 0) + 1;
		return counts;
	}, []);

describe('Pacer', () => {
	it('without limit headers, nothing waits', async () => {
		const clock = new TestClock();
		const pacer = new Pacer(clock);
		pacer.learn(APP, 'read', { statusCode: 200, headers: {} });
		await secondsOfSlots(pacer, clock, 1000);
		expect(clock.waits).toEqual([]);
	});

	it('learns the limit from an answer and keeps each second below it', async () => {
		const clock = new TestClock();
		const pacer = new Pacer(clock);
		pacer.learn(APP, 'read', answer(50, 49)); // the answer's own request counts in this second
		const seconds = await secondsOfSlots(pacer, clock, 150);
		// 50 per second less a margin of 2 for requests that land in the next second.
		expect(perSecond(seconds)).toEqual([47, 48, 48, 7]);
	});

	it('counts what the service counted: other executions and processes of the same application', async () => {
		const clock = new TestClock();
		const pacer = new Pacer(clock);
		await pacer.takeSlot(APP, 'read');
		pacer.learn(APP, 'read', answer(50, 10)); // 40 used in this second, only 1 of them ours
		const seconds = await secondsOfSlots(pacer, clock, 20);
		expect(perSecond(seconds)).toEqual([8, 12]);
	});

	it('a 429 fills the second and slows the pace; a quiet period brings it back', async () => {
		const clock = new TestClock();
		const pacer = new Pacer(clock);
		pacer.learn(APP, 'read', answer(50, 0, 429));
		const slowed = perSecond(await secondsOfSlots(pacer, clock, 100));
		expect(slowed[0] ?? 0).toBe(0);
		expect(slowed[1]).toBe(46);
		clock.time += 11_000;
		pacer.learn(APP, 'read', answer(50, 49));
		await pacer.takeSlot(APP, 'read'); // a new second
		pacer.sending(APP, 'read')();
		clock.time += 1000 - (clock.time % 1000);
		const recovered = perSecond(await secondsOfSlots(pacer, clock, 47));
		expect(recovered[0]).toBe(47);
	});

	it('a burst of 429s in one second widens the margin once (two n8n processes, 16 items in flight each)', async () => {
		const clock = new TestClock();
		const pacer = new Pacer(clock);
		// Another process filled the second: all 16 requests in flight come back refused together.
		for (let index = 0; index < 16; index++) {
			pacer.learn(APP, 'read', answer(50, 0, 429));
		}
		const slowed = perSecond(await secondsOfSlots(pacer, clock, 100));
		expect(slowed[0] ?? 0).toBe(0);
		// 50 less a margin of 2 + 2, not 50 less half the limit (2 + 2 per 429, up to 25): this process
		// alone would otherwise run at half the limit for minutes after the other one stopped.
		expect(slowed[1]).toBe(46);
		// A 429 in a later second widens it again, by 2.
		clock.time += 1000 - (clock.time % 1000);
		pacer.learn(APP, 'read', answer(50, 0, 429));
		const again = perSecond(await secondsOfSlots(pacer, clock, 88));
		expect(again[0] ?? 0).toBe(0);
		expect(again.slice(1)).toEqual([44, 44]);
	});

	it('a margin widened by another process comes back one slot per quiet second', async () => {
		const clock = new TestClock();
		const pacer = new Pacer(clock);
		// Two workers at the limit together: 429s in 12 seconds in a row widen the margin to half the limit.
		for (let second = 0; second < 12; second++) {
			pacer.learn(APP, 'read', answer(50, 0, 429));
			clock.time += 1000;
		}
		expect(perSecond(await secondsOfSlots(pacer, clock, 25))).toEqual([25]);
		// The other worker stopped: answers without a 429, one a second.
		for (let second = 0; second < 23; second++) {
			clock.time += 1001;
			pacer.learn(APP, 'read', answer(50, 49));
		}
		clock.time += 1000 - (clock.time % 1000);
		expect(perSecond(await secondsOfSlots(pacer, clock, 48))).toEqual([48]);
	});

	describe('a request counts in every second it may reach the service in', () => {
		/** A pacer that knows the limit (50, 48 with the margin), at the start of a second. */
		function atLimit() {
			const clock = new TestClock();
			const pacer = new Pacer(clock);
			pacer.learn(APP, 'read', answer(50, 50));
			return { clock, pacer };
		}
		const nextSecond = (clock: TestClock) => (clock.time += 1000 - (clock.time % 1000));

		it('sent and not yet answered when a second starts: it takes a slot of that second', async () => {
			const { clock, pacer } = atLimit();
			const answers = [];
			for (let index = 0; index < 8; index++) {
				await pacer.takeSlot(APP, 'read');
				answers.push(pacer.sending(APP, 'read'));
			}
			nextSecond(clock);
			// Answered in the new second, undated or dated in it: they may have arrived in it, they stay.
			const dated = { headers: { date: new Date(clock.time).toUTCString() } };
			answers.forEach((answered, index) => (index % 2 ? answered(dated) : answered()));
			expect(perSecond(await secondsOfSlots(pacer, clock, 48))).toEqual([40, 8]);
		});

		it('answered in the next second with the date of its own: it was counted there, its place comes back', async () => {
			const { clock, pacer } = atLimit();
			const sentAt = new Date(clock.time).toUTCString();
			const answers = [];
			for (let index = 0; index < 8; index++) {
				await pacer.takeSlot(APP, 'read');
				answers.push(pacer.sending(APP, 'read'));
			}
			nextSecond(clock);
			for (const answered of answers) answered({ headers: { date: sentAt } });
			expect(perSecond(await secondsOfSlots(pacer, clock, 48))).toEqual([48]);
		});

		it('answered within its own second: it takes no slot of the next one', async () => {
			const { clock, pacer } = atLimit();
			await pacer.takeSlot(APP, 'read');
			pacer.sending(APP, 'read')();
			nextSecond(clock);
			expect(perSecond(await secondsOfSlots(pacer, clock, 48))).toEqual([48]);
		});

		it('its slot taken late in a second and sent in the next: it takes a slot of that one too', async () => {
			const { clock, pacer } = atLimit();
			clock.time += 999;
			await pacer.takeSlot(APP, 'read');
			clock.time += 2;
			const answered = pacer.sending(APP, 'read');
			answered();
			expect(perSecond(await secondsOfSlots(pacer, clock, 48))).toEqual([47, 1]);
		});

		it('a slot never used for a request is given up after a second', async () => {
			const { clock, pacer } = atLimit();
			await pacer.takeSlot(APP, 'read'); // its caller was cancelled: no request follows
			nextSecond(clock);
			clock.time += 1;
			expect(perSecond(await secondsOfSlots(pacer, clock, 48))).toEqual([48]);
		});
	});

	it('keeps reads and writes apart', async () => {
		const clock = new TestClock();
		const pacer = new Pacer(clock);
		pacer.learn(APP, 'write', answer(20, 19));
		expect(perSecond(await secondsOfSlots(pacer, clock, 30, 'write'))).toEqual([17, 13]);
		clock.waits = [];
		await secondsOfSlots(pacer, clock, 100, 'read');
		expect(clock.waits).toEqual([]);
	});

	it('keeps applications apart', async () => {
		const clock = new TestClock();
		const pacer = new Pacer(clock);
		pacer.learn(APP, 'read', answer(50, 0));
		await pacer.takeSlot('https://api.example.com/v1 client other', 'read');
		expect(clock.waits).toEqual([]);
	});

	it('a stopped execution leaves the wait at once', async () => {
		const clock: Clock = {
			now: () => Date.parse('2026-11-23T10:00:00.000Z'),
			sleep: async (_ms, signal) => {
				if (signal?.aborted) throw new Error('aborted');
			},
		};
		const pacer = new Pacer(clock);
		pacer.learn(APP, 'read', answer(50, 0));
		const cancel = new AbortController();
		cancel.abort();
		await expect(pacer.takeSlot(APP, 'read', { signal: cancel.signal })).rejects.toThrow('aborted');
	});
});
