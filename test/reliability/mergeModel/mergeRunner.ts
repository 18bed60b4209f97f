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
import { startStubService } from '../../support/stub-service';
import { clock } from '../triggerModel/clock';

// One workflow with both Partner Payroll triggers, driven through a random history the way n8n and
// Svix would drive it: the service completes months and runs them again; each run is sent as a Svix
// message that may be delivered, lost, refused by n8n (it could not create the execution),
// abandoned by the sender while n8n goes on, delivered while a poll runs, or replayed from the
// portal; polls run; n8n restarts. As in n8n, each activation of the workflow (the history's start,
// each restart) runs the poll once at once, before any scheduled poll. The workflow's static data
// is one saved row: each webhook request reads it and n8n saves the request's whole copy after
// creating the execution (with n8n 2.40's cleared change mark); the poll works on the copy its
// activation loaded and n8n saves it whole after a poll that returned items, and after the
// activation when it changed; the last save wins. At the end Svix delivers every message still
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

export type Step =
	| { step: 'complete'; month: 0 | 1; milliseconds: number }
	| { step: 'revert'; month: 0 | 1; announced: boolean }
	| { step: 'deliver'; message: number; fate: Fate }
	| { step: 'replay'; message: number }
	| { step: 'giveUp'; message: number }
	| { step: 'poll' }
	| { step: 'restart' }
	| { step: 'clock'; minutes: number };

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
	fc.constant({ step: 'restart' as const }),
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
	transcript: string[];
}

export class MergeRunner {
	/** Each month's runs at the service, oldest first: the last one is its status. */
	private readonly monthRuns = new Map<string, string[]>();
	private readonly messages: Message[] = [];
	private readonly runs: string[] = [];
	private readonly started = new Map<string, number>();
	private readonly transcript: string[] = [];
	private webhook!: WebhookWorkflow;
	private poll!: TriggerPoller;
	private nextMessage = 1;
	/** Runs whose hand-over n8n dropped without an answer since the last restart. */
	private readonly heldUntilRestart = new Set<string>();

	constructor(private readonly baseUrl: string) {}

	/** The service's answer to the poll's GET …/payroll-status?date=YYYYMM. */
	status(month: string): IDataObject {
		const end = this.monthRuns.get(month)?.at(-1);
		return end
			? { month, status: 'completed', executionEndDate: end }
			: { month, status: 'not_completed', executionEndDate: null };
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
			await this.activate();
			for (const step of steps) await this.step(step);
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
		return { runs: this.runs, started: this.started, pollOnly, current, baseline, held };
	}

	/**
	 * n8n activates the workflow (when it is published, and at each start): the poll works on the copy
	 * of the saved row loaded now, and n8n runs it once at once, before any scheduled poll
	 * (activatePolling → executeTrigger(true)); an execution for each item, as for any poll. After the
	 * activation n8n saves the static data when it is marked as changed, even if the poll returned none.
	 */
	private async activate(): Promise<void> {
		this.poll = createTrigger(
			{ event: 'payrollCompleted', companyId: COMPANY, months: 'both' },
			{
				partnerPayrollApi: { baseUrl: this.baseUrl, accessToken: 'model-token', authServerUrl: '' },
			},
			{ staticData: snapshot(this.webhook.staticData), timezone: 'UTC' },
		);
		await this.pollOnce('activation poll');
		if (this.poll.takeSave()) this.webhook.staticData = snapshot(this.poll.staticData);
	}

	private count(items: IDataObject[] | undefined, by: string): void {
		for (const item of items ?? []) {
			const key = runKeyOf(item) ?? 'no run';
			this.started.set(key, (this.started.get(key) ?? 0) + 1);
			this.transcript.push(`    → started by the ${by}: ${key}`);
		}
	}

	private async pollOnce(label = 'poll'): Promise<void> {
		const result = await this.poll.poll();
		const items = result?.[0].map((item) => item.json);
		this.transcript.push(`${label}: ${items?.length ?? 0} item(s)`);
		this.count(items, 'poll');
		// n8n saves the poll's whole copy after a poll that returned items.
		if (result && this.poll.takeSave()) this.webhook.staticData = snapshot(this.poll.staticData);
	}

	private handOver(answer: WebhookAnswer, created: boolean, reachesSender = true): void {
		this.webhook.handOver(answer, created, { answerReachesSender: reachesSender });
		if (created) this.count(answer.items, 'webhook');
	}

	private async deliver(message: Message, fate: Fate): Promise<void> {
		this.transcript.push(`deliver ${message.id} (${message.month} ${message.end}): ${fate}`);
		if (fate === 'lost') return;
		const request = signedRequest({
			id: message.id,
			body: payrollRun(COMPANY, message.month, message.end),
		});
		const answer = await this.webhook.receive(request);
		this.transcript.push(`    answer ${answer.status}${answer.items ? ', an execution' : ''}`);
		if (!answer.items) {
			if (answer.status < 300) message.failing = false;
			return;
		}
		switch (fate) {
			case 'notCreated':
				this.handOver(answer, false);
				return;
			case 'senderGaveUp':
				answer.response.senderGaveUp();
				this.handOver(answer, true, false);
				return;
			case 'duringPoll':
				await this.pollOnce();
				break;
			case 'failedDuringPoll':
				// A poll runs while n8n creates the execution, which then fails (an error answer).
				await this.pollOnce();
				this.handOver(answer, false);
				return;
			case 'dropped':
				// The sender closed the connection and n8n never created the execution: its error answer
				// reached nobody, so the trigger never learns the outcome (held until n8n restarts).
				answer.response.senderGaveUp();
				this.handOver(answer, false, false);
				this.heldUntilRestart.add(message.run);
				return;
		}
		this.handOver(answer, true);
		message.failing = false;
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
				const failing = this.messages.filter(retried);
				if (failing.length) await this.deliver(failing[step.message % failing.length], step.fate);
				return;
			}
			case 'giveUp': {
				// Svix's schedule for the message ended (or it disabled the endpoint): no more retries.
				const failing = this.messages.filter(retried);
				if (!failing.length) return;
				const message = failing[step.message % failing.length];
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
				await this.pollOnce();
				return;
			case 'restart':
				this.transcript.push('restart: a new process, the workflow built again from the saved row');
				newProcess();
				this.heldUntilRestart.clear();
				await this.activate();
				return;
			case 'clock':
				clock.advance(step.minutes * 60_000);
				this.transcript.push(`clock +${step.minutes} min`);
				return;
		}
	}
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
		return { status: 200, json: runner.status(month) };
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
