import { DateTime } from 'luxon';
import { PollContext } from 'n8n-core';
import {
	NodeHelpers,
	Workflow,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type IPollFunctions,
} from 'n8n-workflow';

import { PartnerPayrollTrigger } from '../../../nodes/PartnerPayrollTrigger/PartnerPayrollTrigger.node';
import { forgetStoredStates } from '../../../nodes/PartnerPayrollTrigger/helpers/stateStore';
import { forgetRunClaims } from '../../../nodes/shared/runClaims';
import { additionalDataFor, type TestCredentials } from '../../support/n8n-harness';
import { clock } from './clock';
import {
	COMPANIES,
	type DocType,
	type History,
	type MonthsRule,
	type ServiceOp,
	type Step,
} from './histories';
import { ModelService, type Observation } from './service';

// Runs one history against the real trigger: n8n-core's PollContext on a real Workflow, the
// package's transport over real HTTP to the stub service, one fake clock. The runner plays n8n:
// polls never overlap; the static data is saved only after a poll that emitted items, and only if
// n8n marked it changed (its ObservableObject's `__dataChanged`); a restart, a publish and every
// edit build the workflow again from what was saved (a rename keeps the node's id and changes its
// name). The static data is opaque to the runner.

export const trigger = new PartnerPayrollTrigger();
const NODE_ID = '6f1c2d9a-model-trigger';
const POLL_INTERVAL_MS = 60_000;
const MAX_FINAL_POLLS = 40;

/** Whether the trigger has an option of this name (the lead adds `firstCompletionOnly`). */
export function triggerHasOption(name: string): boolean {
	return trigger.description.properties.some(
		(property) =>
			property.name === 'options' &&
			(property.options ?? []).some((option) => 'name' in option && option.name === name),
	);
}

export function addMonths(month: string, delta: number): string {
	const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(4, 6)) - 1 + delta;
	const year = Math.floor(index / 12);
	return `${year}${String(index - year * 12 + 1).padStart(2, '0')}`;
}

export function monthAt(zone: string, at: number): string {
	return DateTime.fromMillis(at, { zone }).toFormat('yyyyMM');
}

/** The node's configuration, as the user left it. */
export interface Config {
	company: string;
	months: MonthsRule;
	specific: string[];
	zone: string;
	types: DocType[];
	nodeName: string;
}

/** The months the Months rule names at this instant (the model's "selected" months). */
export function selectedMonths(config: Config, at: number): string[] {
	const current = monthAt(config.zone, at);
	switch (config.months) {
		case 'current':
			return [current];
		case 'previous':
			return [addMonths(current, -1)];
		case 'specific':
			return [...config.specific].sort();
		default:
			return [addMonths(current, -1), current];
	}
}

export interface PollRecord {
	number: number;
	final: boolean;
	startedAt: number;
	endedAt: number;
	company: string;
	/** What makes months "newly added by an edit": Months, Specific Months, time zone. */
	configKey: string;
	/** The Months rule and the workflow's time zone of the poll (Payroll Completed). */
	months: MonthsRule;
	zone: string;
	selected: string[];
	/** New Document: the listings watched. */
	types: DocType[];
	/** The current month in the workflow's zone when the poll started. */
	currentMonth: string;
	/** `items`: the poll returned items (n8n runs the workflow and saves the static data). */
	outcome: 'items' | 'null' | 'error';
	error?: string;
	items: INodeExecutionData[];
	observations: Observation[];
	requests: number;
}

export type TraceEvent = { kind: 'poll'; poll: PollRecord } | { kind: 'rebuild'; why: string };

export interface HistoryRun {
	trace: TraceEvent[];
	transcript: string[];
	service: ModelService;
	polls: number;
	requests: number;
	items: number;
}

const stamp = (at: number) => new Date(at).toISOString().replace(':00.000Z', 'Z');
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? {})) as T;

function describeItem(item: INodeExecutionData): string {
	const json = item.json;
	if ('month' in json) {
		return `${String(json.companyId)} ${String(json.month)} ${String(json.executionEndDate)} isRerun=${String(json.isRerun)}${json.dedupeKey ? ` ${String(json.dedupeKey)}` : ''}`;
	}
	const pdf =
		'pdfError' in json
			? json.pdfError === null
				? ' +PDF'
				: ` pdfError="${String(json.pdfError).slice(0, 60)}"`
			: item.binary?.data
				? ' +PDF (no pdfError field)'
				: '';
	return `${String(json.companyId)} ${String(json.documentId)}${pdf}`;
}

export class HistoryRunner {
	private config: Config;
	private saved: IDataObject = {};
	private workflow!: Workflow;
	private node!: INode;
	private readonly trace: TraceEvent[] = [];
	private readonly transcript: string[] = [];
	private polls = 0;
	private items = 0;
	private renames = 0;

	constructor(
		private readonly history: History,
		private readonly service: ModelService,
		private readonly credentials: TestCredentials,
		/** Today's node: set Fire Again on Re-Run, when it has that option. */
		private readonly fireOnRerun = false,
	) {
		this.config = {
			company: COMPANIES[history.company],
			months: history.months,
			specific: this.resolveSpecific(history.specific, history.zone, history.start),
			zone: history.zone,
			types: history.types,
			nodeName: 'Partner Payroll Trigger',
		};
	}

	private resolveSpecific(offsets: number[], zone: string, at: number): string[] {
		const current = monthAt(zone, at);
		return [...new Set(offsets.map((offset) => addMonths(current, offset)))].sort();
	}

	private parameters(): INodeParameters {
		const { history, config } = this;
		if (history.event === 'payrollCompleted') {
			const options: INodeParameters = {
				fireForAlreadyCompleted: history.payrollOptions.fireForAlreadyCompleted,
			};
			if (history.payrollOptions.firstCompletionOnly) options.firstCompletionOnly = true;
			if (this.fireOnRerun && triggerHasOption('fireOnRerun')) options.fireOnRerun = true;
			return {
				authentication: 'accessToken',
				event: 'payrollCompleted',
				companyId: config.company,
				months: config.months,
				...(config.months === 'specific' ? { specificMonths: config.specific.join(', ') } : {}),
				options,
			};
		}
		return {
			authentication: 'accessToken',
			event: 'newDocument',
			companyId: config.company,
			documentTypes: config.types,
			options: { ...history.documentOptions },
		};
	}

	/** What n8n does at every activation: a new Workflow from the saved workflow row. */
	private build(): void {
		const node: INode = {
			id: NODE_ID,
			name: this.config.nodeName,
			type: 'n8n-nodes-partner-payroll.partnerPayrollTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
			credentials: { partnerPayrollApi: { id: 'model-credential', name: 'Partner Payroll' } },
		};
		node.parameters =
			NodeHelpers.getNodeParameters(
				trigger.description.properties,
				this.parameters(),
				true,
				false,
				node,
				trigger.description,
			) ?? {};
		this.node = node;
		this.workflow = new Workflow({
			id: 'model-workflow',
			name: 'Model',
			nodes: [node],
			connections: {},
			active: true,
			staticData: clone(this.saved),
			settings: { timezone: this.config.zone },
			nodeTypes: {
				getByName: () => trigger,
				getByNameAndVersion: () => trigger,
				getKnownTypes: () => ({}),
			},
		});
	}

	private rebuild(why: string): void {
		this.build();
		this.trace.push({ kind: 'rebuild', why });
	}

	private applyOp(op: ServiceOp): string {
		const company = op.company < 0 ? this.config.company : COMPANIES[op.company];
		if (op.op === 'addDocuments') {
			return this.service.addDocuments(company, op.type, op.count, op.broken);
		}
		const month = addMonths(monthAt(this.config.zone, clock.now()), op.monthOffset);
		if (op.op === 'complete') return this.service.complete(company, month, op.format);
		if (op.op === 'reopen') return this.service.reopen(company, month);
		return this.service.reformat(company, month);
	}

	private async poll(step: Extract<Step, { step: 'poll' }>, final: boolean): Promise<PollRecord> {
		clock.advance(POLL_INTERVAL_MS);
		const number = ++this.polls;
		const startedAt = clock.now();
		const selected = selectedMonths(this.config, startedAt);
		const changes: string[] = [];
		this.service.startPoll({
			requests: step.requests,
			pdfOutage: step.pdfOutage,
			applyChange: (change) => changes.push(this.applyOp(change)),
		});
		const requestsBefore = this.service.requests;
		const record: PollRecord = {
			number,
			final,
			startedAt,
			endedAt: startedAt,
			company: this.config.company,
			configKey: `${this.config.months}|${this.config.specific.join(',')}|${this.config.zone}`,
			months: this.config.months,
			zone: this.config.zone,
			selected,
			types: [...this.config.types],
			currentMonth: monthAt(this.config.zone, startedAt),
			outcome: 'null',
			items: [],
			observations: [],
			requests: 0,
		};
		try {
			const context = new PollContext(
				this.workflow,
				this.node,
				additionalDataFor(this.credentials),
				'trigger',
				'activate',
			);
			// The attempt's timeout travels to the stub, which answers "too slow" exactly as n8n's would time out.
			const helpers = context.helpers as IPollFunctions['helpers'];
			const send = helpers.httpRequestWithAuthentication;
			helpers.httpRequestWithAuthentication = async function (
				this: unknown,
				type,
				options,
				...rest
			) {
				const headers = {
					...(options.headers ?? {}),
					'x-model-timeout': String(options.timeout ?? ''),
				};
				return await send.call(this as IPollFunctions, type, { ...options, headers }, ...rest);
			};
			const result = await trigger.poll!.call(context);
			if (result !== null) {
				record.outcome = 'items';
				record.items = result[0] ?? [];
				// n8n runs the workflow, then saves the workflow's static data if it is marked changed
				// (WorkflowStaticDataService.saveStaticData: `__dataChanged`), and clears the mark.
				const staticData = this.workflow.staticData;
				if (staticData.__dataChanged === true) {
					const saved = clone(staticData);
					delete saved.__dataChanged;
					this.saved = saved;
					staticData.__dataChanged = false;
				}
			}
		} catch (error) {
			record.outcome = 'error';
			record.error = (error as Error).message;
		}
		this.service.endPoll();
		record.endedAt = clock.now();
		record.observations = this.service.observations;
		record.requests = this.service.requests - requestsBefore;
		this.items += record.items.length;
		this.trace.push({ kind: 'poll', poll: record });

		const faults = step.requests.length
			? ` [request faults: ${step.requests.map((plan) => plan.fault + (plan.change ? '+change' : '')).join(', ')}]`
			: '';
		this.transcript.push(
			`poll #${number}${final ? ' (final)' : ''} at ${stamp(startedAt)}, ${this.config.company}${this.history.event === 'payrollCompleted' ? `, selected ${selected.join(' ')}` : ''}${step.pdfOutage ? ' [PDF outage]' : ''}${faults}`,
		);
		for (const change of changes) this.transcript.push(`      during the poll: ${change}`);
		for (const line of this.service.log) this.transcript.push(`      ${line}`);
		this.transcript.push(
			record.outcome === 'error'
				? `    → error: ${record.error}`
				: record.outcome === 'null'
					? '    → nothing (not saved)'
					: `    → fired ${record.items.length}: ${record.items.map(describeItem).join('; ')} (static data saved)`,
		);
		return record;
	}

	private describeStart(): string {
		const { history, config } = this;
		const options =
			history.event === 'payrollCompleted'
				? JSON.stringify(history.payrollOptions) +
					(this.fireOnRerun && triggerHasOption('fireOnRerun') ? ' + fireOnRerun' : '')
				: JSON.stringify(history.documentOptions);
		const what =
			history.event === 'payrollCompleted'
				? `Months ${config.months}${config.months === 'specific' ? ` ${config.specific.join(',')}` : ''}`
				: `types ${config.types.join(',')}`;
		return `${history.event} · ${config.company} · ${what} · zone ${config.zone} · options ${options} · clock ${stamp(history.start)}`;
	}

	async run(): Promise<HistoryRun> {
		clock.install(this.history.start);
		// Each history runs in a new n8n process.
		forgetRunClaims();
		forgetStoredStates();
		try {
			this.transcript.push(this.describeStart());
			this.build();
			for (const step of this.history.steps) await this.step(step);
			// The end of every history: fault-free polls a minute apart, until two in a row fire nothing.
			let quiet = 0;
			for (let index = 0; index < MAX_FINAL_POLLS && quiet < 2; index++) {
				const record = await this.poll({ step: 'poll', requests: [], pdfOutage: false }, true);
				quiet = record.items.length ? 0 : quiet + 1;
			}
			return {
				trace: this.trace,
				transcript: this.transcript,
				service: this.service,
				polls: this.polls,
				requests: this.service.requests,
				items: this.items,
			};
		} finally {
			clock.uninstall();
		}
	}

	private async step(step: Step): Promise<void> {
		const { config } = this;
		switch (step.step) {
			case 'poll':
				await this.poll(step, false);
				return;
			case 'service':
				for (const op of step.ops) this.transcript.push(`service: ${this.applyOp(op)}`);
				return;
			case 'clock':
				clock.advance(step.ms);
				this.transcript.push(`clock +${step.ms / 60_000} min → ${stamp(clock.now())}`);
				return;
			case 'restart':
			case 'republish':
				this.transcript.push(
					`${step.step} (the workflow is built again from the saved static data)`,
				);
				// A restart is a new process: only what static data kept is left of the run claims and
				// of the trigger's state.
				if (step.step === 'restart') {
					forgetRunClaims();
					forgetStoredStates();
				}
				this.rebuild(step.step);
				return;
			case 'editMonths':
				config.months = step.months;
				config.specific = this.resolveSpecific(step.specific, config.zone, clock.now());
				this.transcript.push(
					`edit + publish: Months ${step.months}${step.months === 'specific' ? ` ${config.specific.join(',')}` : ''}`,
				);
				this.rebuild('edit');
				return;
			case 'editTimeZone':
				config.zone = step.zone;
				this.transcript.push(`edit + publish: workflow time zone ${step.zone}`);
				this.rebuild('edit');
				return;
			case 'rename':
				config.nodeName = `Payroll trigger ${++this.renames}`;
				this.transcript.push(`rename + publish: node now "${config.nodeName}" (same node id)`);
				this.rebuild('rename');
				return;
			case 'switchCompany':
				config.company = COMPANIES[step.company];
				this.transcript.push(`edit + publish: Company ID ${config.company}`);
				this.rebuild('edit');
				return;
			case 'editTypes':
				config.types = step.types;
				this.transcript.push(`edit + publish: Document Types ${step.types.join(',')}`);
				this.rebuild('edit');
				return;
		}
	}
}
