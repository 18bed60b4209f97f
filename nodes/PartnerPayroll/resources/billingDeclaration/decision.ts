import { randomUUID } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import {
	LOCK_ATTEMPTS,
	RECORD_SIZE,
	RecordRefusal,
	lock,
	parsed,
	unlock,
	type DeclarationRequest,
	type RecordRow,
	type RecordTable,
} from './record';

// Whether to send a declaration: what the record says of it, decided while holding the record's lock
// (record.ts), so two executions never both decide to send.

/** What the record says of an item's declaration. */
export type Decision =
	| { send: true; claim: string; earlier: EarlierDeclaration[] }
	| { send: false; confirmation: RecordRow };

/** Another declaration of the same company and month, with other quantities. */
export interface EarlierDeclaration {
	declaration: IDataObject;
	declaredAt: string;
	executionId: string;
}

/** The newest row of a declaration's history, or none. */
const newest = (rows: RecordRow[]) =>
	rows.reduce<RecordRow | undefined>(
		(found, row) => (found && found.id > row.id ? found : row),
		undefined,
	);

/**
 * While holding the lock: what the record says of this declaration. `undefined` when another execution
 * is still sending it (the caller waits and asks again).
 */
async function decide(
	table: RecordTable,
	request: DeclarationRequest,
): Promise<Decision | undefined> {
	const history = await table.rows({ kind: 'declaration', declarationKey: request.key });
	const last = newest(history);
	if (last && !request.declareAgain) {
		if (last.state === 'declared') return { send: false, confirmation: last };
		const sentBy = `execution ${last.executionId}`;
		if (last.state === 'sending' && last.executionId !== request.executionId) {
			const state = await table.executionState(last.executionId);
			if (state === 'running') return undefined;
			if (state === 'unseen') {
				throw new RecordRefusal(
					`The billing declaration was not sent: the same declaration was sent by ${sentBy}, which n8n's API does not show to the key of the Partner Payroll n8n API credential (n8n deleted it after it ended, or it runs in a workflow the key's user cannot read), so the service may have recorded it`,
					'uncertain',
				);
			}
		}
		if (last.state === 'sending' || last.state === 'uncertain') {
			throw new RecordRefusal(
				`The billing declaration was not sent: the same declaration was sent by ${sentBy} and its answer never came, so the service may have recorded it`,
				'uncertain',
			);
		}
		throw new RecordRefusal(
			`The billing declaration was not sent: the record of declarations holds a row it cannot read (state "${last.state}")`,
			'unreadable',
		);
	}
	const sameMonth = await table.rows({
		kind: 'declaration',
		companyId: request.companyId,
		monthOfApplication: request.monthOfApplication,
		state: 'declared',
	});
	const claim = randomUUID();
	await table.insert({
		kind: 'declaration',
		declarationKey: request.key,
		companyId: request.companyId,
		monthOfApplication: request.monthOfApplication,
		declaration: request.declaration,
		state: 'sending',
		executionId: request.executionId,
		claim,
	});
	if (history.length === 0) await table.prune(RECORD_SIZE);
	return { send: true, claim, earlier: earlierOf(sameMonth, request.key) };
}

function earlierOf(rows: RecordRow[], key: string): EarlierDeclaration[] {
	return rows
		.filter((row) => row.declarationKey !== key)
		.sort((a, b) => a.id - b.id)
		.map((row) => ({
			declaration: parsed(row.declaration) as IDataObject,
			declaredAt: row.declaredAt,
			executionId: row.executionId,
		}));
}

/** Whether to send this declaration: the first send claims it; a repeat gets the first confirmation. */
export async function claimDeclaration(
	table: RecordTable,
	request: DeclarationRequest,
): Promise<Decision> {
	for (let attempt = 1; attempt <= LOCK_ATTEMPTS; attempt++) {
		const holder = await lock(table, request);
		let decision: Decision | undefined;
		try {
			decision = await decide(table, request);
		} finally {
			await unlock(table, holder);
		}
		if (decision) return decision;
		await table.pause(attempt);
	}
	throw new RecordRefusal(
		'The billing declaration was not sent: another execution is sending the same declaration and has not finished',
		'busy',
	);
}
