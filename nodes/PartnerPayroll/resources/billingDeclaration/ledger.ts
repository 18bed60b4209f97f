import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import type { Connection } from '../../../shared/connection';
import { itemCompanyId } from '../../helpers/itemCompany';

// A declaration is recorded at most once per execution, whatever n8n does around the node: every
// item is checked before the first one is sent, items are sent in order (the node's loop), a batch
// stops at the first failure, and what this execution sent is remembered in the node context,
// which n8n keeps across Retry On Fail and loops within one execution (an AI agent calling twice too).

interface Ledger {
	/** The execution this ledger belongs to. */
	executionId: string;
	/** Declarations (company and body) this execution recorded, with the items that confirmed them. */
	recorded: Record<string, INodeExecutionData[]>;
	/** Declarations whose outcome is unknown: never sent again in this execution. */
	uncertain: string[];
}

/** One run of the node: each item's checked declaration (or what is wrong with it), and what it recorded. */
interface Batch {
	itemIndices: number[];
	checks: Map<number, IDataObject | Error>;
	/** The items of this run recorded so far, in order. */
	recordedItems: number[];
	/** Without Continue On Fail, the first failure stops the items after it. */
	stopsTheBatch: boolean;
}

/** The batch of each run: `startBatch` writes it before the first item, the items of the same run read it. */
const batches = new WeakMap<IExecuteFunctions, Batch>();

/** An item's declaration: its ledger key (company and body), and the output of this execution's earlier record of it. */
export interface Pending {
	key: string;
	confirmed?: INodeExecutionData[];
}

/** Which items of the batch were recorded, and which were not sent, added to the error that stopped it. */
function withBatchOutcome<T extends Error & { description?: string | null }>(
	error: T,
	outcome: { recorded: string[]; notSent: string[] },
): T {
	const recorded = outcome.recorded.length
		? `Recorded before it: ${outcome.recorded.join(', ')}.`
		: 'No item was recorded before it.';
	const notSent = outcome.notSent.length
		? ` Not sent: ${outcome.notSent.join(', ')}; run the node again for these items only.`
		: '';
	error.description = `${error.description ?? ''} ${recorded}${notSent}`.trim();
	return error;
}

function ledgerOf(context: IExecuteFunctions): Ledger {
	const nodeContext = context.getContext('node');
	const executionId = context.getExecutionId();
	// n8n's retry of a failed execution is a new execution that starts with the failed one's node
	// context: what the failed execution sent is for the record across executions to judge (record.ts),
	// which also honours Declare Again, not for this execution's ledger.
	if ((nodeContext.billingDeclarations as Ledger | undefined)?.executionId !== executionId) {
		nodeContext.billingDeclarations = { executionId, recorded: {}, uncertain: [] };
	}
	return nodeContext.billingDeclarations as Ledger;
}

function batchOf(context: IExecuteFunctions): Batch {
	const batch = batches.get(context);
	if (!batch)
		throw new Error('Billing declarations are checked as a batch before the first is sent');
	return batch;
}

/** A write whose outcome is unknown: the service did not refuse it with a 4xx. */
export function mayHaveBeenRecorded(error: unknown): boolean {
	const status = Number((error as { httpCode?: unknown }).httpCode);
	return !(status >= 400 && status < 500);
}

const label = (batch: Batch, itemIndex: number) => {
	const check = batch.checks.get(itemIndex);
	return `item ${itemIndex}${check instanceof Error ? '' : ` (${String(check?.monthOfApplication)})`}`;
};

/**
 * Billing Declaration → Create, before any item is sent: with every item's check (its declaration
 * or its error), stops the run when one fails (with Continue On Fail, only the items that pass are sent).
 */
export function startBatch(
	context: IExecuteFunctions,
	itemIndices: number[],
	checks: Array<IDataObject | Error>,
): void {
	const stopsTheBatch = !context.continueOnFail();
	const failed = checks.findIndex((check) => check instanceof Error);
	if (stopsTheBatch && failed >= 0) {
		// The first item's own error when it is the one; else the batch's, naming the item that failed.
		const error = checks[failed] as Error;
		if (failed === 0) throw error;
		throw new NodeOperationError(
			context.getNode(),
			`Nothing was sent: item ${itemIndices[failed]} did not pass its checks (${error.message})`,
			{
				itemIndex: itemIndices[failed],
				description:
					'All items are checked before the first one is sent, so a batch is never half sent. Fix that item and run the node again.',
			},
		);
	}
	batches.set(context, {
		itemIndices,
		checks: new Map(itemIndices.map((itemIndex, position) => [itemIndex, checks[position]])),
		recordedItems: [],
		stopsTheBatch,
	});
}

/**
 * The declaration an item sends, with its company (the token's company may take a request): not
 * sent when this execution recorded it already (its output again) or may have (an error).
 */
export async function pendingDeclaration(
	context: IExecuteFunctions,
	itemIndex: number,
	connection: Connection,
): Promise<Pending> {
	const batch = batchOf(context);
	const checked = batch.checks.get(itemIndex);
	if (checked instanceof Error) throw checked;
	const companyId = await itemCompanyId(context, itemIndex, connection);
	const key = JSON.stringify({ companyId, ...checked });
	const ledger = ledgerOf(context);
	const confirmed = ledger.recorded[key];
	if (confirmed) {
		batch.recordedItems.push(itemIndex);
		// Answered from this execution's record.
		return { key, confirmed: confirmed.map((output) => ({ ...output, json: { ...output.json } })) };
	}
	if (ledger.uncertain.includes(key)) {
		throw new NodeOperationError(
			context.getNode(),
			'The billing declaration was not sent again: it may have been recorded earlier in this execution',
			{
				itemIndex,
				description:
					'This execution already sent the same declaration and its outcome is unknown (Retry On Fail, a loop, or an agent calling again). Check with the Partner Payroll provider whether it was recorded.',
			},
		);
	}
	return { key };
}

/** The service recorded the declaration: a repeat in this execution gets this output. */
export function recordDeclaration(
	context: IExecuteFunctions,
	itemIndex: number,
	key: string,
	output: INodeExecutionData[],
): INodeExecutionData[] {
	ledgerOf(context).recorded[key] = output;
	batchOf(context).recordedItems.push(itemIndex);
	return output;
}

/** The declaration failed: never sent again when it may have been recorded; the error says what the batch did. */
export function declarationFailure(
	context: IExecuteFunctions,
	itemIndex: number,
	key: string,
	error: Error,
): Error {
	if (mayHaveBeenRecorded(error)) ledgerOf(context).uncertain.push(key);
	const batch = batchOf(context);
	return withBatchOutcome(error, {
		recorded: batch.recordedItems.map((recorded) => label(batch, recorded)),
		notSent: batch.stopsTheBatch
			? batch.itemIndices.filter((other) => other > itemIndex).map((other) => label(batch, other))
			: [],
	});
}
