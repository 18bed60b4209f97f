import { randomUUID } from 'crypto';

// The declarations every execution sent, kept where every n8n process reads the same rows (dataTable.ts:
// a table of this n8n's Data Tables). The service documents no idempotency key and no way to read
// declarations back, so this record is what stops a re-run, a second execution or a second worker from
// declaring again. Its one atomic step is a conditional update ("set holder where holder is empty"),
// which n8n's database runs as one statement (docs/exactly-once.md "Billing declarations"); everything
// else happens while holding the lock that step takes, so two executions never both decide to send
// (decision.ts). This file holds the record's rows, its lock and how a declaration is settled.

export const COLUMNS = [
	'kind',
	'holder',
	'declarationKey',
	'companyId',
	'monthOfApplication',
	'declaration',
	'state',
	'executionId',
	'claim',
	'declaredAt',
	'confirmation',
] as const;

type Column = (typeof COLUMNS)[number];

/** A row of the record: every value is text ('' when empty), `id` is the table's own. */
export type RecordRow = { id: number } & Record<Column, string>;

/** Column = value, all of them. */
export type RowMatch = Partial<Record<Column, string>>;

/** The few things the record needs of a table; each call is one request, atomic on its own. */
export interface RecordTable {
	rows(match: RowMatch): Promise<RecordRow[]>;
	insert(row: RowMatch): Promise<void>;
	/** Sets `data` on every row that matches, in one statement: the rows it changed. */
	update(match: RowMatch, data: RowMatch): Promise<RecordRow[]>;
	remove(match: RowMatch): Promise<void>;
	/** Keeps the newest `keep` declarations. */
	prune(keep: number): Promise<void>;
	/**
	 * What n8n's API says of an execution. 'unseen': it answered 404, which it does both for an
	 * execution it deleted after it ended and for one of a workflow the API key's user cannot read.
	 */
	executionState(executionId: string): Promise<'running' | 'ended' | 'unseen'>;
	/** Whether the API key's user can read this workflow (and so sees every execution it keeps of it). */
	canReadWorkflow(workflowId: string): Promise<boolean>;
	/** Waits before the next attempt to take a lock another execution holds. */
	pause(attempt: number): Promise<void>;
}

/** The declarations kept: a partner's 300 clients declaring every month fill it in about 16 months. */
export const RECORD_SIZE = 5_000;

/** Attempts to take the lock (or to see another execution's send end) before the item fails. */
export const LOCK_ATTEMPTS = 60;

/** Attempts after which the holder's execution is asked whether it ended (a crash while holding). */
const ATTEMPTS_BEFORE_ASKING = 3;

/** The record refuses to send: what happened and how to declare again on purpose. */
export class RecordRefusal extends Error {
	constructor(
		message: string,
		readonly reason: 'uncertain' | 'busy' | 'unreadable',
	) {
		super(message);
	}
}

export const DECLARE_AGAIN_HINT =
	"To send it anyway, turn on Declare Again in the node's options (a second declaration is a second bill).";

/** One declaration as the record keys it: the service's address, the company and the body sent. */
export interface DeclarationRequest {
	key: string;
	companyId: string;
	monthOfApplication: string;
	declaration: string;
	executionId: string;
	workflowId: string;
	declareAgain: boolean;
}

const LOCK = { kind: 'lock' } as const;
/** A lock row nobody holds. */
const FREE = 'free';

/** A lock's holder: `executionId/workflowId/random`, the workflow telling what a 404 of the execution means. */
const holderName = (request: DeclarationRequest) =>
	`${request.executionId}/${request.workflowId}/${randomUUID()}`;

function holderOf(name: string): { executionId: string; workflowId: string } {
	const [executionId, workflowId, random] = name.split('/');
	return { executionId, workflowId: random === undefined ? '' : workflowId };
}

/**
 * Whether the holder's execution ended. A 404 means it ended only when the key's user can read the
 * holder's workflow (n8n deleted the execution after it ended): n8n answers the same 404 for a running
 * execution of a workflow the user cannot read, and freeing its lock would let a second execution
 * send the declaration that one is sending. 'hidden': it cannot tell.
 */
async function holderState(
	table: RecordTable,
	name: string,
): Promise<'running' | 'ended' | 'hidden'> {
	const { executionId, workflowId } = holderOf(name);
	const state = await table.executionState(executionId);
	if (state !== 'unseen') return state;
	return workflowId !== '' && (await table.canReadWorkflow(workflowId)) ? 'ended' : 'hidden';
}

/** Takes every lock row (a race on the first use may make more than one); returns the holder name. */
export async function lock(table: RecordTable, request: DeclarationRequest): Promise<string> {
	const holder = holderName(request);
	let stuckOn: string | undefined;
	for (let attempt = 1; attempt <= LOCK_ATTEMPTS; attempt++) {
		const taken = await table.update({ ...LOCK, holder: FREE }, { holder });
		const locks = await table.rows(LOCK);
		if (!locks.length) {
			await table.insert({ ...LOCK, holder: FREE });
			continue;
		}
		if (locks.every((row) => row.holder === holder)) return holder;
		if (taken.length) await table.update({ ...LOCK, holder }, { holder: FREE });
		if (attempt >= ATTEMPTS_BEFORE_ASKING) {
			stuckOn = await freeLocksOfEndedExecutions(table, locks, holder);
		}
		await table.pause(attempt);
	}
	const { executionId, workflowId } = holderOf(stuckOn ?? '');
	throw new RecordRefusal(
		stuckOn
			? `The billing declaration was not sent: the record of declarations stayed locked by execution ${executionId}${workflowId ? ` of workflow ${workflowId}` : ''}, which n8n's API does not show to the key of the Partner Payroll n8n API credential: if that execution has ended, use a key whose user can read that workflow (an owner's or admin's key reads every workflow)`
			: 'The billing declaration was not sent: the record of declarations stayed locked by another execution',
		'busy',
	);
}

/**
 * A lock row whose holder's execution ended (a crash while holding it) is freed: that holder can never
 * free it. Returns a holder whose execution n8n's API does not show to this key, if any.
 */
async function freeLocksOfEndedExecutions(
	table: RecordTable,
	locks: RecordRow[],
	holder: string,
): Promise<string | undefined> {
	const others = new Set(
		locks.map((row) => row.holder).filter((name) => name !== FREE && name !== holder),
	);
	let hidden: string | undefined;
	for (const other of others) {
		const state = await holderState(table, other);
		if (state === 'ended') await table.update({ ...LOCK, holder: other }, { holder: FREE });
		if (state === 'hidden') hidden = other;
	}
	return hidden;
}

export async function unlock(table: RecordTable, holder: string): Promise<void> {
	await table.update({ ...LOCK, holder }, { holder: FREE });
}

/** A value the record wrote as JSON; a row that is not is unreadable. */
export function parsed(text: string): unknown {
	let value: unknown;
	try {
		value = JSON.parse(text) as unknown;
	} catch {
		value = undefined;
	}
	if (value === undefined) {
		throw new RecordRefusal(
			'The billing declaration was not sent: the record of declarations holds a row it cannot read',
			'unreadable',
		);
	}
	return value;
}

/** What the service did with a claimed declaration; only the claim's owner writes its row. */
export type Outcome =
	| { state: 'declared'; confirmation: string; declaredAt: string }
	| { state: 'uncertain' }
	| { state: 'refused' };

export async function settleDeclaration(
	table: RecordTable,
	claim: string,
	outcome: Outcome,
): Promise<void> {
	if (outcome.state === 'refused') return table.remove({ kind: 'declaration', claim });
	await table.update({ kind: 'declaration', claim }, outcome);
}
