import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { IN_FLIGHT_MAX_MS } from '../../../nodes/shared/inFlight';
import { runKeyOf } from '../../../nodes/shared/runClaims';
import {
	createTrigger,
	snapshot,
	type TriggerPoller,
} from '../../nodes/PartnerPayrollTrigger/triggerHarness';
import {
	WebhookWorkflow,
	newProcess,
	payrollRun,
	signedRequest,
	type WebhookAnswer,
} from '../../nodes/PartnerPayrollWebhookTrigger/webhookHarness';
import { startStubService, type StubAnswer } from '../../support/stub-service';
import { clock } from '../triggerModel/clock';

// One workflow with both Partner Payroll triggers, driven through a random history the way n8n and
// Svix would drive it: the service completes months and runs them again; each run is sent as a Svix
// message that may be delivered, lost, refused by n8n (it could not create the execution),
// abandoned by the sender while n8n goes on, delivered while a poll runs, or replayed from the
// portal; polls run; n8n restarts; the workflow is published again. As in n8n, each activation of
// the workflow (the history's start, each restart and publication) runs the poll once at once, before
// any scheduled poll; that poll may fail (the activation fails: n8n retries a start, a publication is
// undone until the next one), and a delivery may come before, during or after it (`activate`). The
// workflow's static data is one saved row: each webhook request reads it and n8n saves the request's
// whole copy after creating the execution (with n8n 2.40's cleared change mark); the poll works on
// the copy its activation loaded and n8n saves it whole after a poll that returned items, and after
// the activation when it changed; the last save wins. At the end Svix delivers every message still
// failing (its retries last about 28 hours) and the poll runs twice. Svix may also give up on a
// failing message (its schedule ends, or it disables the endpoint after 5 days of failures): from
// then on it is never delivered again, so only the poll, the safety net, can start its run. The
// promise: every run starts the workflow exactly once; a run whose every message Svix gave up
// starts at most once, and exactly once when it is its month's status at the end (the only run a
// poll can see), unless the poll saw it first as already completed (its baseline, which fires
// nothing by the poll's own promise).

export const COMPANY = 'FR1001';
/** The previous and the current month at the start of every history. */
export const MONTHS = ['202610', '202611'] as const;
const START = Date.parse('2026-11-20T10:00:00.000Z');
const WORKFLOW_ID = 'test-workflow';

export type Fate =
	| 'delivered'
	| 'lost'
	| 'notCreated'
	| 'senderGaveUp'
	| 'duringPoll'
	| 'failedDuringPoll'
	| 'dropped';

/**
 * How an activation of the workflow goes (a start of n8n, or a publication in the same process).
 * `fault`: the service fails the activation's poll (an error answer, a connection cut as a timeout
 * ends, or the token refused; `partial`: error answers for the previous month only, so the poll
 * answers in part) and the `faultPolls` - 1 poll attempts after it. `delivery`: a failing
 * message delivered around the activation poll: before n8n loads the activation's copy of the static
 * data, after it, while the poll runs (received before, answered after), or after the poll returned
 * and before n8n saves the activation's copy. `n8n`: the version whose retry of a failed start runs.
 */
export interface Activation {
	fault?: Fault;
	faultPolls: 1 | 2;
	delivery?: {
		message: number;
		at: 'beforeLoad' | 'beforePoll' | 'duringPoll' | 'afterPoll';
		outcome: 'created' | 'notCreated' | 'dropped';
	};
	n8n: '2.8' | '2.40';
}

export type Fault = 'error' | 'cut' | 'refused' | 'partial';

export type Step =
	| { step: 'complete'; month: 0 | 1; milliseconds: number }
	| { step: 'revert'; month: 0 | 1; announced: boolean }
	| { step: 'deliver'; message: number; fate: Fate }
	| { step: 'replay'; message: number }
	| { step: 'giveUp'; message: number }
	| { step: 'poll' }
	| { step: 'restart'; activation?: Activation }
	| { step: 'publish'; activation?: Activation }
	| { step: 'clock'; minutes: number };

const unusualActivationArb: fc.Arbitrary<Activation> = fc.record({
	fault: fc.oneof(
		{ weight: 2, arbitrary: fc.constant(undefined) },
		{ weight: 1, arbitrary: fc.constantFrom<Fault>('error', 'cut', 'refused', 'partial') },
	),
	faultPolls: fc.constantFrom(1 as const, 2 as const),
	delivery: fc.option(
		fc.record({
			message: fc.nat(9),
			at: fc.constantFrom(
				'beforeLoad' as const,
				'beforePoll' as const,
				'duringPoll' as const,
				'afterPoll' as const,
			),
			outcome: fc.constantFrom('created' as const, 'notCreated' as const, 'dropped' as const),
		}),
		{ freq: 4, nil: undefined },
	),
	n8n: fc.constantFrom('2.8' as const, '2.40' as const),
});

/** Most activations go as planned (a failing poll costs the service's retries: time). */
const activationArb: fc.Arbitrary<Activation | undefined> = fc.oneof(
	{ weight: 1, arbitrary: fc.constant(undefined) },
	{ weight: 1, arbitrary: unusualActivationArb },
);

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
	fc.record({
		step: fc.constant('complete' as const),
		month: fc.constantFrom(0 as const, 1 as const),
		milliseconds: fc.integer({ min: 0, max: 999 }),
	}),
	fc.record({
		step: fc.constant('revert' as const),
		month: fc.constantFrom(0 as const, 1 as const),
		announced: fc.boolean(),
	}),
	fc.record({
		step: fc.constant('deliver' as const),
		message: fc.nat(9),
		fate: fc.constantFrom<Fate>(
			'delivered',
			'lost',
			'notCreated',
			'senderGaveUp',
			'duringPoll',
			'failedDuringPoll',
			'dropped',
		),
	}),
	fc.record({ step: fc.constant('replay' as const), message: fc.nat(9) }),
	fc.record({ step: fc.constant('giveUp' as const), message: fc.nat(9) }),
	fc.constant({ step: 'poll' as const }),
	fc.record({ step: fc.constant('restart' as const), activation: activationArb }),
	fc.record({ step: fc.constant('publish' as const), activation: activationArb }),
	fc.record({ step: fc.constant('clock' as const), minutes: fc.integer({ min: 1, max: 90 }) }),
);

interface Message {
	id: string;
	/** The run it announces (runKeyOf). */
	run: string;
	month: string;
	end: string;
	/** No attempt was answered 2xx. */
	failing: boolean;
	/** Svix stopped retrying it while it was failing: only a replay from the portal sends it again. */
	givenUp: boolean;
}

export interface MergeRun {
	/** Every run of the history: company, month and end instant. */
	runs: string[];
	/** How often each run started the workflow. */
	started: Map<string, number>;
	/** The runs whose every message Svix gave up: only the poll (or a replay) can start them. */
	pollOnly: string[];
	/** Each month's run at the service at the end (its payroll status). */
	current: string[];
	/** The runs the poll's state records as the month's run without having fired them (a baseline). */
	baseline: string[];
	/** Runs whose hand-over n8n dropped without any answer and that no restart freed since. */
	held: string[];
	/** How often the history reached each situation of the activations (`Reached`). */
	reached: Map<Reached, number>;
	transcript: string[];
}

/** Situations of the activations the property must reach to be able to fail there. */
export type Reached =
	| 'activation poll failed'
	| 'start retried'
	| 'publication failed'
	| `delivery ${NonNullable<Activation['delivery']>['at']}`
	| "activation's save over a delivery's"
	| 'delivery while not published';

/** The service's answer to a request while it fails. */
const FAULT_ANSWERS = {
	error: { status: 503, json: { error: 'Service Unavailable' } },
	partial: { status: 503, json: { error: 'Service Unavailable' } },
	cut: { reset: true },
	refused: { status: 401, json: { error: 'invalid_token' } },
} as const;

export class MergeRunner {
	/** Each month's runs at the service, oldest first: the last one is its status. */
	private readonly monthRuns = new Map<string, string[]>();
	private readonly messages: Message[] = [];
	private readonly runs: string[] = [];
	private readonly started = new Map<string, number>();
	private readonly transcript: string[] = [];
	private readonly reached = new Map<Reached, number>();
	private webhook!: WebhookWorkflow;
	private poll!: TriggerPoller;
	private nextMessage = 1;
	/** Runs whose hand-over n8n dropped without an answer since the last restart. */
	private readonly heldUntilRestart = new Set<string>();
	/** The service fails every request, for this many more poll attempts. */
	private fault?: { kind: Fault; polls: number };
	/**
	 * The workflow is published but its start failed: n8n retries the activation with the copy of the
	 * static data it loaded at the start (`copy`), and runs no scheduled poll until one succeeds.
	 */
	private retry?: { copy: IDataObject; loaded: string; n8n: Activation['n8n'] };
	/** A publication failed: n8n took the workflow back to unpublished (no poll, webhooks 404). */
	private unpublished = false;

	constructor(private readonly baseUrl: string) {}

	/** The service's answer to the poll's GET …/payroll-status?date=YYYYMM. */
	answer(month: string): StubAnswer {
		const { kind } = this.fault ?? {};
		if (kind && (kind !== 'partial' || month === MONTHS[0])) return FAULT_ANSWERS[kind];
		const end = this.monthRuns.get(month)?.at(-1);
		const json = end
			? { month, status: 'completed', executionEndDate: end }
			: { month, status: 'not_completed', executionEndDate: null };
		return { status: 200, json };
	}

	async run(steps: Step[]): Promise<MergeRun> {
		clock.install(START);
		try {
			newProcess();
			this.webhook = new WebhookWorkflow(
				{ options: { fireOnRerun: true } },
				undefined,
				WORKFLOW_ID,
			);
			await this.activate('publish');
			for (const step of steps) await this.step(step);
			// n8n's retries of a failed start succeed once the service answers; the user publishes a
			// workflow whose publication failed again, until it succeeds.
			await this.retryStart();
			for (let attempt = 1; this.unpublished; attempt += 1) {
				if (attempt > 3) throw new Error('the publication kept failing after the fault ended');
				await this.activate('publish');
			}
			// Svix's retries: every message still failing is delivered once the holds have lapsed, but
			// those it gave up on.
			clock.advance(2 * IN_FLIGHT_MAX_MS);
			for (const message of this.messages.filter(retried)) {
				await this.deliver(message, 'delivered');
			}
			await this.pollOnce();
			await this.pollOnce();
			return { ...this.outcome(), transcript: this.transcript };
		} finally {
			clock.uninstall();
		}
	}

	private reach(situation: Reached): void {
		this.reached.set(situation, (this.reached.get(situation) ?? 0) + 1);
	}

	private send(month: string, end: string): Message {
		const message: Message = {
			id: `msg_${this.nextMessage++}`,
			run: runKey(month, end),
			month,
			end: end.replace(/\.\d{3}Z$/, '+00:00'),
			failing: true,
			givenUp: false,
		};
		this.messages.push(message);
		return message;
	}

	private outcome(): Omit<MergeRun, 'transcript'> {
		const pollOnly = this.runs.filter((run) =>
			this.messages.filter((sent) => sent.run === run).every((sent) => sent.givenUp),
		);
		const current = [...this.monthRuns.entries()].flatMap(([month, ends]) =>
			ends.length ? [runKey(month, ends.at(-1)!)] : [],
		);
		const payroll = (this.poll.state().payrollCompleted as IDataObject | undefined)?.companies as
			| Record<string, { months: IDataObject; fired: IDataObject }>
			| undefined;
		const known = payroll?.[COMPANY];
		const baseline = current.filter((run) => {
			const month = run.split(':')[2];
			const seen = (known?.months[month] as IDataObject | undefined)?.executionEndDate;
			const fired = known?.fired[month];
			return (
				typeof seen === 'string' &&
				sameSecond(seen, run) &&
				!(typeof fired === 'string' && sameSecond(fired, run))
			);
		});
		const held = [...this.heldUntilRestart];
		const { runs, started, reached } = this;
		return { runs, started, pollOnly, current, baseline, held, reached };
	}

	/**
	 * n8n activates the workflow: when it is published (`publish`, in the same process) and at each
	 * start (`restart`, a new process). It stores the webhook first, then loads the workflow's static
	 * data, runs the poll once at once (activatePolling → executeTrigger(true)) and only then
	 * schedules the polls; the poll works on that copy from then on. After the activation n8n saves
	 * the copy when it is marked as changed, even if the poll returned no item. The webhook answers
	 * all along: at a start n8n's server listens before it activates the workflows, and at a
	 * publication the webhook is stored before the poll (docs/exactly-once.md, "Activations").
	 *
	 * An activation poll that throws fails the activation: no poll is scheduled and n8n saves nothing.
	 * A failed publication takes the workflow back to unpublished; a failed start leaves it published,
	 * its webhook answering, and n8n retries the activation with the same loaded copy (`retryStart`).
	 */
	private async activate(kind: 'publish' | 'restart', activation?: Activation): Promise<void> {
		this.retry = undefined;
		this.unpublished = false;
		if (activation?.fault) this.fault = { kind: activation.fault, polls: activation.faultPolls };
		const delivery = activation?.delivery;
		const message = delivery && this.failing(delivery.message);
		const around = message && delivery ? { ...delivery, message } : undefined;
		const deliverAt = async (at: NonNullable<Activation['delivery']>['at']) => {
			if (around?.at === at) await this.deliverAround(around.message, around.outcome, at);
		};
		if (around) this.reach(`delivery ${around.at}`);
		await deliverAt('beforeLoad');
		const copy = snapshot(this.webhook.staticData);
		const loaded = JSON.stringify(copy);
		this.poll = this.pollerOn(copy);
		await deliverAt('beforePoll');
		const during =
			around?.at === 'duringPoll'
				? await this.receiveAround(around.message, around.outcome, around.at)
				: undefined;
		const activated = await this.pollOnce('activation poll');
		if (around && during) this.settle(around.message, during, around.outcome);
		await deliverAt('afterPoll');
		if (activated) {
			this.saveActivation(loaded);
			return;
		}
		this.reach('activation poll failed');
		if (kind === 'publish') {
			this.reach('publication failed');
			this.unpublished = true;
			this.transcript.push('    the publication failed: the workflow is unpublished again');
			return;
		}
		this.retry = { copy, loaded, n8n: activation?.n8n ?? '2.40' };
		this.transcript.push('    the start failed: n8n retries the activation, no poll scheduled');
	}

	/** A poller of the trigger on `copy`, the static data n8n loaded for an activation. */
	private pollerOn(copy: IDataObject): TriggerPoller {
		return createTrigger(
			{ event: 'payrollCompleted', companyId: COMPANY, months: 'both' },
			{
				partnerPayrollApi: { baseUrl: this.baseUrl, accessToken: 'model-token', authServerUrl: '' },
			},
			{ staticData: copy, timezone: 'UTC' },
		);
	}

	/**
	 * n8n saves the activation's copy when it is marked as changed; the last save wins, over any
	 * delivery's saved since the copy was loaded (`loaded`: the saved row then).
	 */
	private saveActivation(loaded: string): void {
		if (!this.poll.takeSave()) return;
		if (JSON.stringify(this.webhook.staticData) !== loaded) {
			this.reach("activation's save over a delivery's");
		}
		this.webhook.staticData = snapshot(this.poll.staticData);
	}

	/**
	 * n8n retries a failed start 1 s later, then after 2 s, 4 s… (addQueuedWorkflowActivation), with
	 * the workflow it loaded at the start: a new Workflow on the same static data object. n8n 2.8's
	 * n8n-workflow wraps that object's children again (a new `global` object, so a new activation
	 * to the trigger); 2.40's keeps them (the same activation). Either way the change mark is cleared.
	 */
	private async retryStart(): Promise<void> {
		for (let attempt = 1; this.retry; attempt += 1) {
			if (attempt > 5) throw new Error('the activation kept failing after the fault ended');
			const { copy, loaded, n8n } = this.retry;
			this.reach('start retried');
			if (n8n === '2.8') this.poll = this.pollerOn(copy);
			else this.poll.takeSave();
			if (await this.pollOnce(`activation retry (n8n ${n8n})`)) {
				this.retry = undefined;
				this.saveActivation(loaded);
			}
		}
	}

	private count(items: IDataObject[] | undefined, by: string): void {
		for (const item of items ?? []) {
			const key = runKeyOf(item) ?? 'no run';
			this.started.set(key, (this.started.get(key) ?? 0) + 1);
			this.transcript.push(`    → started by the ${by}: ${key}`);
		}
	}

	/**
	 * One poll; false when it threw. A scheduled poll that throws makes an error execution, nothing
	 * else; an activation's fails the activation.
	 */
	private async pollOnce(label = 'poll'): Promise<boolean> {
		let result: Awaited<ReturnType<TriggerPoller['poll']>>;
		try {
			result = await this.poll.poll();
		} catch (error) {
			this.transcript.push(`${label}: failed (${(error as Error).message})`);
			return false;
		} finally {
			if (this.fault && --this.fault.polls <= 0) this.fault = undefined;
		}
		const items = result?.[0].map((item) => item.json);
		this.transcript.push(`${label}: ${items?.length ?? 0} item(s)`);
		this.count(items, 'poll');
		// n8n saves the poll's whole copy after a poll that returned items.
		if (result && this.poll.takeSave()) this.webhook.staticData = snapshot(this.poll.staticData);
		return true;
	}

	private handOver(answer: WebhookAnswer, created: boolean, reachesSender = true): void {
		this.webhook.handOver(answer, created, { answerReachesSender: reachesSender });
		if (created) this.count(answer.items, 'webhook');
	}

	/** The failing message Svix sends at `index` (modulo), if any. */
	private failing(index: number): Message | undefined {
		const failing = this.messages.filter(retried);
		return failing.length ? failing[index % failing.length] : undefined;
	}

	/** webhook() for one attempt of `message`; the answer when n8n is to create an execution. */
	private async receive(message: Message): Promise<WebhookAnswer | undefined> {
		if (this.unpublished) {
			this.reach('delivery while not published');
			this.transcript.push(`    ${message.id}: 404, the workflow is not published`);
			return undefined;
		}
		const request = signedRequest({
			id: message.id,
			body: payrollRun(COMPANY, message.month, message.end),
		});
		const answer = await this.webhook.receive(request);
		this.transcript.push(`    answer ${answer.status}${answer.items ? ', an execution' : ''}`);
		if (answer.items) return answer;
		if (answer.status < 300) message.failing = false;
		return undefined;
	}

	/** What n8n makes of a delivery whose webhook() returned an execution to start. */
	private settle(
		message: Message,
		answer: WebhookAnswer,
		outcome: 'created' | 'notCreated' | 'senderGaveUp' | 'dropped',
	): void {
		switch (outcome) {
			case 'notCreated':
				this.handOver(answer, false);
				return;
			case 'senderGaveUp':
				answer.response.senderGaveUp();
				this.handOver(answer, true, false);
				return;
			case 'dropped':
				// The sender closed the connection and n8n never created the execution: its error answer
				// reached nobody, so the trigger never learns the outcome (held until n8n restarts).
				answer.response.senderGaveUp();
				this.handOver(answer, false, false);
				this.heldUntilRestart.add(message.run);
				return;
			case 'created':
				this.handOver(answer, true);
				message.failing = false;
		}
	}

	/** webhook() for a delivery around an activation (`at`, for the transcript). */
	private async receiveAround(
		message: Message,
		outcome: 'created' | 'notCreated' | 'dropped',
		at: string,
	): Promise<WebhookAnswer | undefined> {
		const what = `${message.id} (${message.month} ${message.end}): ${outcome}`;
		this.transcript.push(`deliver ${what}, ${at} of the activation`);
		return await this.receive(message);
	}

	/** A delivery around an activation, received and answered at one point of it. */
	private async deliverAround(
		message: Message,
		outcome: 'created' | 'notCreated' | 'dropped',
		at: string,
	): Promise<void> {
		const answer = await this.receiveAround(message, outcome, at);
		if (answer) this.settle(message, answer, outcome);
	}

	private async deliver(message: Message, fate: Fate): Promise<void> {
		this.transcript.push(`deliver ${message.id} (${message.month} ${message.end}): ${fate}`);
		if (fate === 'lost') return;
		const answer = await this.receive(message);
		if (!answer) return;
		switch (fate) {
			case 'duringPoll':
				await this.scheduledPoll();
				this.settle(message, answer, 'created');
				return;
			case 'failedDuringPoll':
				// A poll runs while n8n creates the execution, which then fails (an error answer).
				await this.scheduledPoll();
				this.settle(message, answer, 'notCreated');
				return;
			case 'delivered':
				this.settle(message, answer, 'created');
				return;
			default:
				this.settle(message, answer, fate);
		}
	}

	/** A poll n8n schedules: none while the workflow is unpublished or its start still fails. */
	private async scheduledPoll(): Promise<void> {
		await this.retryStart();
		if (this.unpublished) {
			this.transcript.push('poll: none, the workflow is not published');
			return;
		}
		await this.pollOnce();
	}

	private async step(step: Step): Promise<void> {
		switch (step.step) {
			case 'complete': {
				const month = MONTHS[step.month];
				clock.advance(1000);
				// The status gives the end with milliseconds; the service's payroll.run writes it to the
				// second, with an offset (its public example: 2023-01-30T13:02:33+00:00).
				const endMs = clock.now() + step.milliseconds;
				const end = new Date(endMs).toISOString();
				this.monthRuns.set(month, [...(this.monthRuns.get(month) ?? []), end]);
				this.runs.push(runKey(month, end));
				const message = this.send(month, end);
				this.transcript.push(`service: ${month} completed, end ${end}, message ${message.id}`);
				return;
			}
			case 'revert': {
				// The month's newest payroll is deleted: its status goes back to the run before (a run
				// that may have started the workflow already), or to not completed. No new run.
				const month = MONTHS[step.month];
				const ends = this.monthRuns.get(month) ?? [];
				if (!ends.length) return;
				this.monthRuns.set(month, ends.slice(0, -1));
				const back = ends.at(-2);
				this.transcript.push(
					`service: ${month}'s run ${ends.at(-1)} deleted, back to ${back ?? 'not completed'}`,
				);
				if (back && step.announced) {
					const message = this.send(month, back);
					this.transcript.push(
						`    the service sends the run it went back to again: ${message.id}`,
					);
				}
				return;
			}
			case 'deliver': {
				const message = this.failing(step.message);
				if (message) await this.deliver(message, step.fate);
				return;
			}
			case 'giveUp': {
				// Svix's schedule for the message ended (or it disabled the endpoint): no more retries.
				const message = this.failing(step.message);
				if (!message) return;
				message.givenUp = true;
				this.transcript.push(`svix gives up on ${message.id} (${message.month} ${message.end})`);
				return;
			}
			case 'replay': {
				if (!this.messages.length) return;
				const message = this.messages[step.message % this.messages.length];
				await this.deliver({ ...message, failing: true }, 'delivered');
				return;
			}
			case 'poll':
				await this.scheduledPoll();
				return;
			case 'restart':
				this.transcript.push(
					`restart${activationText(step.activation)}: a new process, the workflow built again from the saved row`,
				);
				newProcess();
				this.heldUntilRestart.clear();
				this.retry = undefined;
				// An unpublished workflow is not activated at a start.
				if (!this.unpublished) await this.activate('restart', step.activation);
				return;
			case 'publish':
				this.transcript.push(`publish${activationText(step.activation)}`);
				await this.activate('publish', step.activation);
				return;
			case 'clock':
				clock.advance(step.minutes * 60_000);
				this.transcript.push(`clock +${step.minutes} min`);
				await this.retryStart();
				return;
		}
	}
}

/** How an activation of a step goes, for the transcript. */
function activationText(activation?: Activation): string {
	if (!activation) return '';
	const parts = [
		activation.fault
			? `the service fails (${activation.fault}) ${activation.faultPolls} poll(s)`
			: '',
		activation.delivery
			? `message ${activation.delivery.message} delivered ${activation.delivery.at}: ${activation.delivery.outcome}`
			: '',
	].filter(Boolean);
	return parts.length ? ` (${parts.join('; ')}, n8n ${activation.n8n})` : '';
}

/** A message Svix still retries: failing, and not given up. */
const retried = (message: Message) => message.failing && !message.givenUp;

/** The run key of a month's run ending at `end` (the status's form, with milliseconds). */
const runKey = (month: string, end: string) =>
	`payroll:${COMPANY}:${month}:${end.replace(/\.\d{3}Z$/, '.000Z')}`;

/** Whether an end date (any form) is the run's end, to the second. */
const sameSecond = (end: string, run: string) =>
	new Date(Math.floor(Date.parse(end) / 1000) * 1000).toISOString() ===
	run.split(':').slice(3).join(':');

/** How often a run must start: once, or at most once for a run only the poll could start and did not see. */
function mayStartNever(run: MergeRun, key: string): boolean {
	if (run.held.includes(key)) return true;
	if (!run.pollOnly.includes(key)) return false;
	return !run.current.includes(key) || run.baseline.includes(key);
}

/**
 * The service a test file's histories run against: the payroll-status route answers as the runner
 * `current()` returns (the history being run); anything else is 404.
 */
export async function startModelService(current: () => MergeRunner | undefined) {
	return await startStubService((request) => {
		const month = /\/companies\/[^/]+\/payroll-status$/.test(request.path)
			? request.query.date
			: undefined;
		const runner = current();
		if (!runner || !month) return { status: 404, json: { error: 'Not found' } };
		return runner.answer(month);
	});
}

/** Every run that did not start as often as it must, with how often it started. */
export function violations(run: MergeRun): string[] {
	const found = run.runs
		.filter((key) => {
			const count = run.started.get(key) ?? 0;
			return count > 1 || (count === 0 && !mayStartNever(run, key));
		})
		.map((key) => `${key} started ${run.started.get(key) ?? 0} time(s)`);
	const phantoms = [...run.started.keys()].filter((key) => !run.runs.includes(key));
	return [...found, ...phantoms.map((key) => `${key} started but is no run of the service`)];
}
