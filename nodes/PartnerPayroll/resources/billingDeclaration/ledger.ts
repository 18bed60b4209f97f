import { NodeOperationError, type IDataObject, type INodeExecutionData } from 'n8n-workflow';

import type { Item, ItemExecutor } from '../../helpers/operation';

// A declaration is recorded at most once per execution, whatever n8n does around the node: every
// item is checked before the first one is sent, items are sent in order (the node's loop), a batch
// stops at the first failure, and what this execution sent is remembered in the node context,
// which n8n keeps across Retry On Fail and loops within one execution (an AI agent calling twice too).

interface Ledger {
	/** Declarations (company and body) this execution recorded, with the items that confirmed them. */
	recorded: Record<string, INodeExecutionData[]>;
	/** Declarations whose outcome is unknown: never sent again in this execution. */
	uncertain: string[];
}

interface Declaration {
	/** The item's declaration, checked locally (no request): throws what is wrong with it. */
	check(item: Item): IDataObject;
	/** The declaration with its company (the token's company may take a request). */
	withCompany(item: Item, declaration: IDataObject): Promise<IDataObject>;
	send(item: Item, declaration: IDataObject): Promise<INodeExecutionData[]>;
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

function ledgerOf(item: Item): Ledger {
	const context = item.context.getContext('node');
	context.billingDeclarations ??= { recorded: {}, uncertain: [] };
	return context.billingDeclarations as Ledger;
}

/** A write whose outcome is unknown: the service did not refuse it with a 4xx. */
function mayHaveBeenRecorded(error: unknown): boolean {
	const status = Number((error as { httpCode?: unknown }).httpCode);
	return !(status >= 400 && status < 500);
}

/**
 * Billing Declaration → Create: checks every item first (with Continue On Fail, only the items that
 * pass are sent), then returns how each item is sent, in the node's order, at most once.
 */
export async function sendEachDeclarationOnce(
	items: Item[],
	declaration: Declaration,
): Promise<ItemExecutor> {
	const checks = items.map((item) => {
		try {
			return declaration.check(item);
		} catch (error) {
			return error as Error;
		}
	});
	const stopsTheBatch = !items[0]?.context.continueOnFail();
	const failed = checks.findIndex((check) => check instanceof Error);
	if (stopsTheBatch && failed >= 0) {
		// The first item's own error when it is the one; else the batch's, naming the item that failed.
		const error = checks[failed] as Error;
		if (failed === 0) throw error;
		throw new NodeOperationError(
			items[failed].node,
			`Nothing was sent: item ${failed} did not pass its checks (${error.message})`,
			{
				itemIndex: failed,
				description:
					'All items are checked before the first one is sent, so a batch is never half sent. Fix that item and run the node again.',
			},
		);
	}
	const recordedItems: number[] = [];
	const label = (index: number) => {
		const check = checks[index];
		return `item ${index}${check instanceof Error ? '' : ` (${String(check.monthOfApplication)})`}`;
	};

	return async (item) => {
		const checked = checks[item.index];
		if (checked instanceof Error) throw checked;
		const ledger = ledgerOf(item);
		const key = JSON.stringify(await declaration.withCompany(item, checked));
		const confirmed = ledger.recorded[key];
		if (confirmed) {
			recordedItems.push(item.index);
			// Answered from this execution's record.
			return confirmed.map((output) => ({ ...output, json: { ...output.json } }));
		}
		if (ledger.uncertain.includes(key)) {
			throw new NodeOperationError(
				item.node,
				'The billing declaration was not sent again: it may have been recorded earlier in this execution',
				{
					itemIndex: item.index,
					description:
						'This execution already sent the same declaration and its outcome is unknown (Retry On Fail, a loop, or an agent calling again). Check with the Partner Payroll provider whether it was recorded.',
				},
			);
		}
		try {
			const output = await declaration.send(item, JSON.parse(key) as IDataObject);
			ledger.recorded[key] = output;
			recordedItems.push(item.index);
			return output;
		} catch (error) {
			if (mayHaveBeenRecorded(error)) ledger.uncertain.push(key);
			throw withBatchOutcome(error as Error, {
				recorded: recordedItems.map(label),
				notSent: stopsTheBatch
					? items.filter((other) => other.index > item.index).map((other) => label(other.index))
					: [],
			});
		}
	};
}
