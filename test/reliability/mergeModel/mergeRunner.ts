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
import { clock } from '../triggerModel/clock';

// One workflow with both Partner Payroll triggers, driven through a random history the way n8n and
// Svix would drive it: the service completes months and runs them again; each run is sent as a Svix
// message that may be delivered, lost, refused by n8n (it could not create the execution), abandoned
// by the sender while n8n goes on, delivered while a poll runs, or replayed from the portal; polls
// run; n8n restarts. The workflow's static data is one saved row: each webhook request reads it and
// n8n saves the request's whole copy after creating the execution (with n8n 2.40's cleared change
// mark); the poll works on the copy its activation loaded and n8n saves it whole after a poll that
// returned items; the last save wins. At the end Svix delivers every message still failing (its
// retries last about 28 hours) and the poll runs twice. The promise: every run starts the workflow
// exactly once.

export const COMPANY = 'FR1001';
/** The previous and the current month at the start of every history. */
export const MONTHS = ['202610', '202611'] as const;
const START = Date.parse('2026-11-20T10:00:00.000Z');
const WORKFLOW_ID = 'test-workflow';

export type Fate = 'delivered' | 'lost' | 'notCreated' | 'senderGaveUp' | 'duringPoll';

export type Step =
	| { step: 'complete'; month: 0 | 1; milliseconds: number }
	| { step: 'revert'; month: 0 | 1; announced: boolean }
	| { step: 'deliver'; message: number; fate: Fate }
	| { step: 'replay'; message: number }
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
		fate: fc.constantFrom<Fate>('delivered', 'lost', 'notCreated', 'senderGaveUp', 'duringPoll'),
	}),
	fc.record({ step: fc.constant('replay' as const), message: fc.nat(9) }),
	fc.constant({ step: 'poll' as const }),
	fc.constant({ step: 'restart' as const }),
	fc.record({ step: fc.constant('clock' as const), minutes: fc.integer({ min: 1, max: 90 }) }),
);

interface Message {
	id: string;
	month: string;
	end: string;
	/** Svix still retries it: no attempt was answered 2xx. */
	failing: boolean;
}

export interface MergeRun {
	/** Every run of the history: company, month and end instant. */
	runs: string[];
	/** How often each run started the workflow. */
	started: Map<string, number>;
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
			this.activatePoll();
			for (const step of steps) await this.step(step);
			// Svix's retries: every message still failing is delivered once the holds have lapsed.
			clock.advance(2 * IN_FLIGHT_MAX_MS);
			for (const message of this.messages.filter((sent) => sent.failing)) {
				await this.deliver(message, 'delivered');
			}
			await this.pollOnce();
			await this.pollOnce();
			return { runs: this.runs, started: this.started, transcript: this.transcript };
		} finally {
			clock.uninstall();
		}
	}

	private send(month: string, effectiveDate: string): Message {
		const message = { id: `msg_${this.nextMessage++}`, month, end: effectiveDate, failing: true };
		this.messages.push(message);
		return message;
	}

	private activatePoll(): void {
		this.poll = createTrigger(
			{ event: 'payrollCompleted', companyId: COMPANY, months: 'both' },
			{
				partnerPayrollApi: { baseUrl: this.baseUrl, accessToken: 'model-token', authServerUrl: '' },
			},
			{ staticData: snapshot(this.webhook.staticData), timezone: 'UTC' },
		);
	}

	private count(items: IDataObject[] | undefined, by: string): void {
		for (const item of items ?? []) {
			const key = runKeyOf(item) ?? 'no run';
			this.started.set(key, (this.started.get(key) ?? 0) + 1);
			this.transcript.push(`    → started by the ${by}: ${key}`);
		}
	}

	private async pollOnce(): Promise<void> {
		const result = await this.poll.poll();
		const items = result?.[0].map((item) => item.json);
		this.transcript.push(`poll: ${items?.length ?? 0} item(s)`);
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
				const effectiveDate = end.replace(/\.\d{3}Z$/, '+00:00');
				this.monthRuns.set(month, [...(this.monthRuns.get(month) ?? []), end]);
				this.runs.push(`payroll:${COMPANY}:${month}:${end.replace(/\.\d{3}Z$/, '.000Z')}`);
				const message = this.send(month, effectiveDate);
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
					const message = this.send(month, back.replace(/\.\d{3}Z$/, '+00:00'));
					this.transcript.push(
						`    the service sends the run it went back to again: ${message.id}`,
					);
				}
				return;
			}
			case 'deliver': {
				const failing = this.messages.filter((sent) => sent.failing);
				if (failing.length) await this.deliver(failing[step.message % failing.length], step.fate);
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
				this.activatePoll();
				return;
			case 'clock':
				clock.advance(step.minutes * 60_000);
				this.transcript.push(`clock +${step.minutes} min`);
				return;
		}
	}
}

/** Every run that did not start exactly once, with how often it started. */
export function violations(run: MergeRun): string[] {
	const found = run.runs
		.filter((key) => (run.started.get(key) ?? 0) !== 1)
		.map((key) => `${key} started ${run.started.get(key) ?? 0} time(s)`);
	const phantoms = [...run.started.keys()].filter((key) => !run.runs.includes(key));
	return [...found, ...phantoms.map((key) => `${key} started but is no run of the service`)];
}
