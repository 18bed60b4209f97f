import { createHash } from 'crypto';
import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import type { Connection } from '../../../shared/connection';
import { dataTableRecord } from './dataTable';
import { mayHaveBeenRecorded } from './ledger';
import { claimDeclaration, type EarlierDeclaration } from './decision';
import {
	DECLARE_AGAIN_HINT,
	RecordRefusal,
	parsed,
	settleDeclaration,
	type RecordRow,
	type RecordTable,
} from './record';

// Billing Declaration → Create across executions: the record says whether to send, and learns what
// the service did. The key is the service's address, the company and the body with its products in
// name order: the same declaration typed in another order is the same declaration.

/** What this item's declaration is to the record, once the record said to send it. */
export interface Claimed {
	table: RecordTable;
	claim: string;
	earlier: EarlierDeclaration[];
}

function recordKey(connection: Connection, declaration: IDataObject): string {
	const { companyId, monthOfApplication, ...products } = declaration;
	const sorted = Object.entries(products).map(([field, list]) => [
		field,
		[...(list as IDataObject[])].sort((a, b) =>
			String(a.productName).localeCompare(String(b.productName)),
		),
	]);
	const canonical = JSON.stringify([connection.baseUrl, companyId, monthOfApplication, sorted]);
	return createHash('sha256').update(canonical).digest('hex');
}

/** The first confirmation again, saying when and by which execution it was sent. */
function repeatOf(confirmation: RecordRow) {
	const first = parsed(confirmation.confirmation) as IDataObject;
	return [
		{
			json: {
				...first,
				alreadyDeclared: true,
				declaredAt: confirmation.declaredAt,
				declaredByExecution: confirmation.executionId,
			},
		},
	];
}

/**
 * Asks the record about an item's declaration: its output when it was declared before (nothing is
 * sent), else the claim to settle after sending. A refusal becomes the item's error.
 */
export async function askRecord(
	context: IExecuteFunctions,
	itemIndex: number,
	connection: Connection,
	declaration: IDataObject,
): Promise<{ output: INodeExecutionData[] } | Claimed> {
	const declareAgain = context.getNodeParameter('options.declareAgain', itemIndex, false) === true;
	const table = dataTableRecord(context);
	const decision = await claimDeclaration(table, {
		key: recordKey(connection, declaration),
		companyId: String(declaration.companyId),
		monthOfApplication: String(declaration.monthOfApplication),
		declaration: JSON.stringify(declaration),
		executionId: context.getExecutionId(),
		workflowId: context.getWorkflow().id ?? '',
		declareAgain,
	})
		.then((decision) =>
			decision.send
				? { table, claim: decision.claim, earlier: decision.earlier }
				: { output: repeatOf(decision.confirmation) },
		)
		.catch((error: unknown) => (error instanceof RecordRefusal ? error : Promise.reject(error)));
	if (decision instanceof RecordRefusal) {
		throw new NodeOperationError(context.getNode(), decision.message, {
			itemIndex,
			description: DECLARE_AGAIN_HINT,
		});
	}
	return decision;
}

/** The service recorded it: the output names the other declarations of that month, and the record keeps it. */
export async function settleSent(
	context: IExecuteFunctions,
	claimed: Claimed,
	output: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const [first] = output;
	if (claimed.earlier.length)
		first.json.earlierDeclarationsOfMonth = claimed.earlier.map((earlier) => ({ ...earlier }));
	try {
		await settleDeclaration(claimed.table, claimed.claim, {
			state: 'declared',
			confirmation: JSON.stringify(first.json),
			declaredAt: new Date().toISOString(),
		});
	} catch (error) {
		// Sent and recorded by the service; the record still says "sending", so a repeat is refused, never sent.
		first.json.recordWarning = `Declared, but the record of declarations could not note it (${(error as Error).message}): a later Create with the same values will refuse rather than confirm.`;
		context.logger.warn(`Partner Payroll: ${String(first.json.recordWarning)}`);
	}
	return output;
}

/** The send failed: refused by the service (forgotten, it can be sent again) or unknown (never sent again). */
export async function settleFailed(
	context: IExecuteFunctions,
	claimed: Claimed,
	error: Error,
): Promise<void> {
	try {
		await settleDeclaration(claimed.table, claimed.claim, {
			state: mayHaveBeenRecorded(error) ? 'uncertain' : 'refused',
		});
	} catch (settleError) {
		// The row stays "sending": a later Create refuses rather than sends, which is the safe side.
		context.logger.warn(
			`Partner Payroll: the record of declarations could not note a failed declaration: ${(settleError as Error).message}`,
		);
	}
}
