import fc from 'fast-check';

import { claimDeclaration } from '../../../nodes/PartnerPayroll/resources/billingDeclaration/decision';
import {
	COLUMNS,
	settleDeclaration,
	type RecordRow,
	type RecordTable,
	type RowMatch,
} from '../../../nodes/PartnerPayroll/resources/billingDeclaration/record';
import { nextTurn } from '../../support/event-loop';

// Billing declarations across executions, driven through a random history the way n8n runs them:
// executions of Billing Declaration → Create on three processes (a main and two queue workers) at
// once, re-runs of failed executions, n8n processes that crash at any step (every execution they ran
// stops there; n8n then reports those executions as ended), answers of the service that are lost after
// it recorded the declaration, and refusals. Some executions run in a workflow the API key's user cannot
// read, and n8n deletes ended executions: its API answers 404 for both. The record's table is one store that every process reaches,
// each request atomic on its own, as n8n's public API runs it on one database; the scheduler runs one
// pending request at a time, in an order the history chooses. The promise: a declaration (company,
// month, quantities) is recorded by the service once, whatever happens, unless Declare Again asks again.

/** Three declarations: FR1001's November, a correction of it (other quantities), and ES2002's. */
export const DECLARATIONS = [
	{ companyId: 'FR1001', monthOfApplication: '2026-11', quantity: 12 },
	{ companyId: 'FR1001', monthOfApplication: '2026-11', quantity: 13 },
	{ companyId: 'ES2002', monthOfApplication: '2026-11', quantity: 40 },
] as const;

export type Step =
	| { step: 'start'; process: number; declaration: number; declareAgain: boolean; hidden: boolean }
	| { step: 'rerun'; execution: number }
	| { step: 'deleteEnded' }
	| { step: 'run'; pick: number }
	| { step: 'crash'; process: number }
	| { step: 'loseNextAnswer' }
	| { step: 'refuseNextSend' };

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
	{
		weight: 4,
		arbitrary: fc.record({
			step: fc.constant('start' as const),
			process: fc.nat(2),
			declaration: fc.nat(2),
			declareAgain: fc.nat(9).map((draw) => draw === 0),
			hidden: fc.nat(3).map((draw) => draw === 0),
		}),
	},
	{ weight: 1, arbitrary: fc.constant({ step: 'deleteEnded' as const }) },
	{
		weight: 2,
		arbitrary: fc.record({ step: fc.constant('rerun' as const), execution: fc.nat(20) }),
	},
	{ weight: 12, arbitrary: fc.record({ step: fc.constant('run' as const), pick: fc.nat(50) }) },
	{ weight: 1, arbitrary: fc.record({ step: fc.constant('crash' as const), process: fc.nat(2) }) },
	{ weight: 1, arbitrary: fc.constant({ step: 'loseNextAnswer' as const }) },
	{ weight: 1, arbitrary: fc.constant({ step: 'refuseNextSend' as const }) },
);

const READABLE_WORKFLOW = 'workflow-the-key-reads';
const HIDDEN_WORKFLOW = 'workflow-the-key-cannot-read';

type Status = 'running' | 'declared' | 'alreadyDeclared' | 'failed' | 'crashed';

interface Execution {
	id: string;
	/** The history's step at which it started, and ended. */
	startedAt: number;
	endedAt: number;
	process: number;
	declaration: number;
	declareAgain: boolean;
	/** Runs in a workflow the API key's user cannot read: n8n's API answers 404 for it. */
	hidden: boolean;
	/** n8n deleted it after it ended: its API answers 404 for it. */
	deleted: boolean;
	status: Status;
	/** For a declared or repeated result: the service had recorded this declaration. */
	reason?: string;
}

interface Pending {
	execution: Execution;
	label: string;
	go: () => void;
}

/** The service's side: every recorded declaration, in order, with whether Declare Again sent it. */
interface Recorded {
	declaration: number;
	declareAgain: boolean;
	execution: string;
}

export class DeclarationWorld {
	readonly executions: Execution[] = [];
	readonly recorded: Recorded[] = [];
	readonly transcript: string[] = [];
	private readonly rows: RecordRow[] = [];
	private nextId = 1;
	private pending: Pending[] = [];
	private loseNext = false;
	/** No crash, lost answer or refusal happened: every declaration asked for must be sent. */
	faultFree = true;
	private refuseNext = false;

	startedAt(id: string): number {
		return this.executions.find((execution) => execution.id === id)?.startedAt ?? Infinity;
	}

	endedAt(id: string): number {
		return this.executions.find((execution) => execution.id === id)?.endedAt ?? Infinity;
	}

	/** The table as one execution reaches it: each request waits for its turn, then applies at once. */
	tableFor(execution: Execution): RecordTable {
		const turn = (label: string) => this.turn(execution, label);
		const matches = (row: RecordRow, match: RowMatch) =>
			Object.entries(match).every(([column, value]) => row[column as keyof RowMatch] === value);
		const empty = Object.fromEntries(COLUMNS.map((column) => [column, ''])) as Omit<
			RecordRow,
			'id'
		>;
		return {
			rows: async (match) => {
				await turn(`rows ${JSON.stringify(match)}`);
				return this.rows.filter((row) => matches(row, match)).map((row) => ({ ...row }));
			},
			insert: async (row) => {
				await turn(`insert ${row.kind}`);
				this.rows.push({ ...empty, ...row, id: this.nextId++ });
			},
			update: async (match, data) => {
				await turn(`update ${JSON.stringify(match)}`);
				const changed = this.rows.filter((row) => matches(row, match));
				for (const row of changed) Object.assign(row, data);
				return changed.map((row) => ({ ...row }));
			},
			remove: async (match) => {
				await turn('remove');
				for (let i = this.rows.length - 1; i >= 0; i--) {
					if (matches(this.rows[i], match)) this.rows.splice(i, 1);
				}
			},
			prune: async (keep) => {
				await turn('prune');
				const declarations = this.rows.filter((row) => row.kind === 'declaration');
				const drop = new Set(declarations.slice(0, Math.max(0, declarations.length - keep)));
				for (let i = this.rows.length - 1; i >= 0; i--)
					if (drop.has(this.rows[i])) this.rows.splice(i, 1);
			},
			executionState: async (executionId) => {
				await turn('executionState');
				const other = this.executions.find((known) => known.id === executionId);
				if (!other || other.hidden || other.deleted) return 'unseen';
				return other.status === 'running' ? 'running' : 'ended';
			},
			canReadWorkflow: async (workflowId) => {
				await turn('canReadWorkflow');
				return workflowId === READABLE_WORKFLOW;
			},
			pause: async () => await turn('pause'),
		};
	}

	private async turn(execution: Execution, label: string): Promise<void> {
		await new Promise<void>((go) => this.pending.push({ execution, label, go }));
	}

	/** One execution of Create, as create.ts runs it: ask the record, send, tell the record what happened. */
	start(process: number, declaration: number, declareAgain: boolean, hidden: boolean): void {
		const execution: Execution = {
			id: `e${this.executions.length + 1}`,
			process,
			declaration,
			declareAgain,
			hidden,
			deleted: false,
			status: 'running',
			startedAt: this.transcript.length,
			endedAt: Infinity,
		};
		this.executions.push(execution);
		this.transcript.push(
			`start ${execution.id} on process ${process}: declaration ${declaration}${declareAgain ? ', Declare Again' : ''}${hidden ? ', in a workflow the key cannot read' : ''}`,
		);
		void this.create(execution);
	}

	private async create(execution: Execution): Promise<void> {
		const table = this.tableFor(execution);
		const values = DECLARATIONS[execution.declaration];
		try {
			const decision = await claimDeclaration(table, {
				key: String(execution.declaration),
				companyId: values.companyId,
				monthOfApplication: values.monthOfApplication,
				declaration: JSON.stringify(values),
				executionId: execution.id,
				workflowId: execution.hidden ? HIDDEN_WORKFLOW : READABLE_WORKFLOW,
				declareAgain: execution.declareAgain,
			});
			if (!decision.send) return this.end(execution, 'alreadyDeclared');
			const answer = await this.send(execution);
			if (answer === 'refused') {
				await settleDeclaration(table, decision.claim, { state: 'refused' });
				return this.end(execution, 'failed');
			}
			if (answer === 'lost') {
				await settleDeclaration(table, decision.claim, { state: 'uncertain' });
				return this.end(execution, 'failed');
			}
			await settleDeclaration(table, decision.claim, {
				state: 'declared',
				confirmation: JSON.stringify({ declared: true, by: execution.id }),
				declaredAt: '2026-11-27T10:00:00.000Z',
			});
			this.end(execution, 'declared');
		} catch (error) {
			this.transcript.push(`${execution.id} failed: ${(error as Error).message}`);
			this.end(execution, 'failed');
		}
	}

	/** The POST: the service records it (unless refused); its answer may be lost on the way back. */
	private async send(execution: Execution): Promise<'ok' | 'lost' | 'refused'> {
		await this.turn(execution, 'POST');
		if (this.refuseNext) {
			this.refuseNext = false;
			return 'refused';
		}
		this.recorded.push({
			declaration: execution.declaration,
			declareAgain: execution.declareAgain,
			execution: execution.id,
		});
		if (!this.loseNext) return 'ok';
		this.loseNext = false;
		return 'lost';
	}

	private end(execution: Execution, status: Status): void {
		if (execution.status !== 'running') return;
		execution.status = status;
		execution.endedAt = this.transcript.length;
		this.transcript.push(`${execution.id} ${status}`);
	}

	/** Runs one pending request (the history's pick), then lets every execution reach its next request. */
	async run(pick: number): Promise<boolean> {
		if (!this.pending.length) return false;
		const [next] = this.pending.splice(pick % this.pending.length, 1);
		this.transcript.push(`${next.execution.id}: ${next.label}`);
		next.go();
		await nextTurn();
		return true;
	}

	async apply(step: Step): Promise<void> {
		if (['crash', 'loseNextAnswer', 'refuseNextSend'].includes(step.step)) this.faultFree = false;
		if (step.step === 'start') {
			this.start(step.process, step.declaration, step.declareAgain, step.hidden);
		}
		if (step.step === 'deleteEnded') {
			this.transcript.push('n8n deletes the ended executions');
			for (const execution of this.executions) {
				if (execution.status !== 'running') execution.deleted = true;
			}
		}
		if (step.step === 'run') await this.run(step.pick);
		if (step.step === 'loseNextAnswer') this.loseNext = true;
		if (step.step === 'refuseNextSend') this.refuseNext = true;
		if (step.step === 'rerun') {
			const failed = this.executions.filter((execution) =>
				['failed', 'crashed'].includes(execution.status),
			);
			const again = failed[step.execution % Math.max(1, failed.length)];
			if (again) this.start(again.process, again.declaration, again.declareAgain, again.hidden);
		}
		if (step.step === 'crash') {
			this.transcript.push(`process ${step.process} crashes`);
			this.pending = this.pending.filter((pending) => pending.execution.process !== step.process);
			for (const execution of this.executions) {
				if (execution.process === step.process) this.end(execution, 'crashed');
			}
		}
	}

	/** Runs every execution still going to its end, in an order the seed chooses. */
	async drain(random: () => number): Promise<void> {
		for (let steps = 0; steps < 20_000 && (await this.run(Math.floor(random() * 1000))); steps++);
	}
}

/** What went wrong in a finished history (nothing, when the promise holds). */
export function violations(world: DeclarationWorld): string[] {
	const found: string[] = [];
	for (const [index] of DECLARATIONS.entries()) {
		const sends = world.recorded.filter((record) => record.declaration === index);
		const asked = sends.filter((record) => !record.declareAgain);
		if (asked.length > 1) {
			found.push(
				`declaration ${index} recorded ${asked.length} times without Declare Again (${asked.map((record) => record.execution).join(', ')})`,
			);
		}
		// A send without Declare Again after one whose execution had ended before it started: the record missed it.
		for (const [position, send] of sends.entries()) {
			if (send.declareAgain) continue;
			const started = world.startedAt(send.execution);
			const known = sends
				.slice(0, position)
				.find((earlier) => world.endedAt(earlier.execution) < started);
			if (known)
				found.push(
					`${send.execution} sent declaration ${index} again after ${known.execution} had sent it and ended`,
				);
		}
	}
	for (const execution of world.executions) {
		if (execution.status === 'running') found.push(`${execution.id} never ended`);
		const recorded = world.recorded.filter(
			(record) => record.declaration === execution.declaration,
		);
		if (
			execution.status === 'declared' &&
			!recorded.some((record) => record.execution === execution.id)
		) {
			found.push(`${execution.id} said declared but the service did not record its declaration`);
		}
		if (execution.status === 'alreadyDeclared' && !recorded.length) {
			found.push(`${execution.id} said already declared but the service has no such declaration`);
		}
	}
	if (world.faultFree) {
		const asked = new Set(world.executions.map((execution) => execution.declaration));
		for (const index of asked) {
			if (!world.recorded.some((record) => record.declaration === index)) {
				found.push(`declaration ${index} was asked for in a history without faults and never sent`);
			}
		}
	}
	return found;
}
