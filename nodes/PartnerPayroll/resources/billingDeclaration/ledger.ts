import {
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type INodeExecutionData,
	type ITaskDataConnections,
} from 'n8n-workflow';

import { failureError, withBatchOutcome } from '../../../shared/errors';
import { wait } from '../../../shared/wait';
import type { SendGuard } from '../../helpers/routing';

// A declaration is recorded at most once per execution, whatever n8n does around the node. n8n
// starts every item's request at once and, with Retry On Fail, runs the node again in the same
// execution; an AI agent may call the tool twice. So: every item is checked before the first one
// is sent, items are sent one at a time in order, a batch stops at the first failure, and what
// this execution sent is remembered (node context, kept across retries of the node).

interface Run {
	itemCount: number;
	/** Per item: its month once its checks passed, or why they failed. */
	checks: Array<{ month: string } | { failure: string }>;
	allChecked: Promise<void>;
	markAllChecked: () => void;
	/** Per item: settled once the item is done (sent, failed, or not sent). */
	done: Array<Promise<void>>;
	markDone: Array<() => void>;
	outcomes: Array<'recorded' | 'failed' | 'notSent'>;
	errors: Error[];
}

interface ExecutionLedger {
	run?: Run;
	/** Declarations (company and body) this execution recorded, with the item that confirmed them. */
	recorded: Map<string, INodeExecutionData[]>;
	/** Declarations whose outcome is unknown: never sent again in this execution. */
	uncertain: Set<string>;
}

const ledgers = new WeakMap<object, ExecutionLedger>();

function ledgerOf(context: IExecuteSingleFunctions): ExecutionLedger {
	const scope = context.getContext('node');
	let ledger = ledgers.get(scope);
	if (!ledger) {
		ledger = { recorded: new Map(), uncertain: new Set() };
		ledgers.set(scope, ledger);
	}
	return ledger;
}

function deferred(): [Promise<void>, () => void] {
	let resolve = () => {};
	const promise = new Promise<void>((settle) => (resolve = settle));
	return [promise, resolve];
}

function newRun(itemCount: number): Run {
	const [allChecked, markAllChecked] = deferred();
	const pairs = Array.from({ length: itemCount }, deferred);
	return {
		itemCount,
		checks: [],
		allChecked,
		markAllChecked,
		done: pairs.map(([promise]) => promise),
		markDone: pairs.map(([, resolve]) => resolve),
		outcomes: [],
		errors: [],
	};
}

/**
 * Items of this run of the node: the input the routing engine runs (after Execute Once kept only
 * the first item), else the node's input (main, or an agent's tool input).
 */
function itemCountOf(context: IExecuteSingleFunctions): number {
	const input =
		(context as unknown as { inputData?: ITaskDataConnections }).inputData ??
		context.getExecuteData()?.data;
	return Math.max((input?.main ?? input?.ai_tool)?.[0]?.length ?? 1, 1);
}

/** Records the outcome of an item's local checks; item 0 opens a new run of the node (a retry included). */
function recordChecks(context: IExecuteSingleFunctions, outcome: { month: string } | Error): Run {
	const ledger = ledgerOf(context);
	const index = context.getItemIndex();
	if (index === 0 || !ledger.run) ledger.run = newRun(itemCountOf(context));
	const run = ledger.run;
	run.checks[index] = outcome instanceof Error ? { failure: outcome.message } : outcome;
	if (run.checks.filter(Boolean).length >= run.itemCount) run.markAllChecked();
	return run;
}

/**
 * Waits until every item of the run has been checked. n8n's routing engine starts the items in one
 * synchronous loop (with Batching, a batch per interval), so once that time has passed every item
 * that will start has started. One whose parameters n8n itself could not evaluate never starts: it
 * then counts as failed, so no item waits forever.
 */
async function everyItemChecked(context: IExecuteSingleFunctions, run: Run): Promise<void> {
	const { batching } = context.getNodeParameter('requestOptions', {}) as {
		batching?: { batch?: { batchSize?: number; batchInterval?: number } };
	};
	const size = Math.max(batching?.batch?.batchSize ?? 1, 1);
	const interval = Math.max(batching?.batch?.batchInterval ?? 0, 0);
	const stop = new AbortController();
	await Promise.race([
		run.allChecked,
		wait(Math.ceil(run.itemCount / size) * interval + 1000, stop.signal).catch(() => {}),
	]);
	stop.abort();
	for (let index = 0; index < run.itemCount; index++) {
		if (run.checks[index]) continue;
		run.checks[index] = { failure: 'n8n could not start this item (see its own error)' };
		run.outcomes[index] = 'notSent';
		run.markDone[index]?.();
	}
}

const label = (run: Run, index: number) => {
	const check = run.checks[index];
	return `item ${index}${check && 'month' in check ? ` (${check.month})` : ''}`;
};

/** A write whose outcome is unknown: sent, and not refused by the service with a 4xx. */
function mayHaveBeenRecorded(error: unknown, sent: boolean): boolean {
	const status = Number((error as { httpCode?: unknown }).httpCode);
	return sent && !(status >= 400 && status < 500);
}

/**
 * Billing Declaration → Create, around each item: its local checks first (all items are checked
 * before any is sent), then one item at a time in order, each declaration at most once per
 * execution. `check` runs synchronously, as the engine starts the items in order.
 */
export function declarationSendGuard(declaration: {
	check: (context: IExecuteSingleFunctions) => { month: string };
	key: (context: IExecutePaginationFunctions) => Promise<IDataObject>;
}): SendGuard {
	return async (context, proceed) => {
		const index = context.getItemIndex();
		let checked: { month: string } | Error;
		try {
			checked = declaration.check(context);
		} catch (error) {
			checked = error as Error;
		}
		const run = recordChecks(context, checked);
		const ledger = ledgerOf(context);
		const stopsTheBatch = !context.continueOnFail();
		const fail = (error: Error) => {
			run.outcomes[index] = 'failed';
			run.errors[index] = error;
			return error;
		};
		try {
			if (checked instanceof Error) {
				run.outcomes[index] = 'notSent';
				throw checked;
			}
			await everyItemChecked(context, run);
			const failed = run.checks.findIndex((check) => 'failure' in check);
			if (stopsTheBatch && failed >= 0) {
				run.outcomes[index] = 'notSent';
				const reason = (run.checks[failed] as { failure: string }).failure;
				throw failureError(context.getNode(), 'writeBatchNotSent', { item: failed, reason }, index);
			}
			await Promise.all(run.done.slice(0, index));
			const earlier = run.outcomes.findIndex((outcome, at) => at < index && outcome === 'failed');
			if (stopsTheBatch && earlier >= 0) {
				run.outcomes[index] = 'notSent';
				throw run.errors[earlier];
			}
			const key = JSON.stringify(await declaration.key(context));
			const confirmed = ledger.recorded.get(key);
			if (confirmed) {
				run.outcomes[index] = 'recorded';
				// Answered from this execution's record, paired with this item.
				return confirmed.map((item) => ({
					...item,
					json: { ...item.json },
					pairedItem: { item: index },
				}));
			}
			if (ledger.uncertain.has(key)) {
				const effect = { effect: 'The billing declaration' };
				throw fail(failureError(context.getNode(), 'writeNotSentAgain', effect, index));
			}
			// A failure before the request left (the company lookup, say) recorded nothing.
			let sent = false;
			try {
				const items = await proceed({ beforeSending: () => (sent = true) });
				ledger.recorded.set(key, items);
				run.outcomes[index] = 'recorded';
				return items;
			} catch (error) {
				if (mayHaveBeenRecorded(error, sent)) ledger.uncertain.add(key);
				const indexes = Array.from({ length: run.itemCount }, (_, at) => at);
				throw fail(
					withBatchOutcome(error as Error, {
						recorded: indexes
							.filter((at) => run.outcomes[at] === 'recorded')
							.map((at) => label(run, at)),
						notSent: stopsTheBatch
							? indexes.filter((at) => at > index).map((at) => label(run, at))
							: [],
					}),
				);
			}
		} catch (error) {
			// Whatever stopped this item (the company lookup, say) stops the items after it too.
			if (run.outcomes[index] === undefined) throw fail(error as Error);
			throw error as Error;
		} finally {
			run.markDone[index]?.();
		}
	};
}
