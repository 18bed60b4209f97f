import { randomUUID } from 'crypto';
import { NodeOperationError } from 'n8n-workflow';

import { dataTable, type DataTable, type TableRow } from './dataTable';
import { N8nApiProblem, type StoreContext } from './n8nApi';
import { wait } from './wait';

// The lock every n8n process shares around a change of the Partner API credential's company list
// (read, write, read back). n8n's public API writes a credential unconditionally (no version, no
// If-Match), so without it a process that read the list before another's write could write its own
// change after that write was read back, and drop that row unseen. The lock is a row per credential in
// a table of n8n's Data Tables (dataTable.ts), taken by the one atomic step n8n offers: a conditional
// update, "set holder to me where holder is free", which n8n's database runs as one statement.
//
// A holder may die holding it (a webhook process killed during a connect) and has no execution whose
// state could say so: the lock is a lease. The holder writes when it took the lock; a holder older
// than LEASE_MS is replaced by a conditional update that matches that holder and its time exactly, so
// a holder that took the row meanwhile is never replaced.

// n8n quirk Q22: docs/n8n-quirks.md
// n8n quirk Q18: docs/n8n-quirks.md
export const LIST_LOCK_TABLE_NAME = 'Partner Payroll company list locks';

const COLUMNS = ['credentialId', 'holder', 'takenAt'] as const;

/** A lock row nobody holds. */
const FREE = 'free';

/**
 * How long a holder keeps the lock before another process may take it over. A change's real
 * duration is a database read, a PATCH and a read (well under a second; at most three of them), and
 * each request to n8n's API gives up after 20 s. The holder starts no write after WRITE_WINDOW_MS, so
 * its last PATCH has ended (or given up) 40 s before the lease runs out, which also absorbs clocks of
 * n8n's processes that differ by some seconds (the lease is counted on each process's own clock).
 */
export const LEASE_MS = 120_000;

/** After this, the holder starts no write (see LEASE_MS). */
export const WRITE_WINDOW_MS = LEASE_MS / 2;

/**
 * How long a change waits for the lock: past the lease, so that a lock left by a crashed holder is
 * taken over within one wait rather than refused. A live holder keeps it for under a second.
 */
const WAIT_MS = LEASE_MS + 30_000;

/** The scopes the lock needs of the n8n API key, named in its errors. */
const SCOPES =
	'dataTable:list, dataTable:create, dataTable:read, dataTableRow:read, dataTableRow:create and dataTableRow:update';

/** The list was not changed, or the change was read back without it: the change must be done again. */
export class ListChangeLost extends NodeOperationError {}

/** The change's hold on the lock: `check` throws when it is too old to write. */
export interface ListLease {
	check(): void;
}

/** A table of the lock's name that is not the lock's: no scope would mend it. */
class NotTheLockTable extends N8nApiProblem {}

function lockTable(context: StoreContext): DataTable {
	return dataTable(context, {
		name: LIST_LOCK_TABLE_NAME,
		columns: COLUMNS,
		refuse: (why) =>
			new NotTheLockTable(context.getNode(), `The company list was not changed: ${why}`),
	});
}

/** n8n's API refused the lock's table: what to fix, in n8n's words too. */
function unusable(context: StoreContext, error: N8nApiProblem): N8nApiProblem {
	return new N8nApiProblem(
		context.getNode(),
		`The company list is changed under a lock kept in the table "${LIST_LOCK_TABLE_NAME}" of this n8n's Data Tables, which could not be used: ${error.message} Give the key of the Partner Payroll n8n API credential the scopes ${SCOPES} (an owner's or admin's key has them), and keep Data Tables on in this n8n.`,
	);
}

/** Runs `work` while n8n's API answers; a refusal becomes what to fix about the lock's table. */
async function usingTable<T>(context: StoreContext, work: () => Promise<T>): Promise<T> {
	try {
		return await work();
	} catch (error) {
		const refused = error instanceof N8nApiProblem && !(error instanceof NotTheLockTable);
		throw refused ? unusable(context, error) : error;
	}
}

/** Throws what to fix unless the lock's table is there (or created) and its rows can be read. */
export async function checkListLock(context: StoreContext, credentialId: string): Promise<void> {
	await usingTable(context, async () => await lockTable(context).rows({ credentialId }));
}

const ageOf = (row: TableRow, now: number) => now - Date.parse(row.takenAt);

/**
 * Frees every row whose holder took it more than a lease ago (a holder that died holding it), each
 * by a conditional update on that holder and its time exactly; an unreadable time counts as old (no
 * live holder writes one).
 */
async function freeExpired(table: DataTable, rows: TableRow[], holder: string): Promise<void> {
	const now = Date.now();
	for (const row of rows) {
		const old = !(ageOf(row, now) <= LEASE_MS);
		if (row.holder === FREE || row.holder === holder || !old) continue;
		const { credentialId, takenAt } = row;
		await table.update(
			{ credentialId, holder: row.holder, takenAt },
			{ holder: FREE, takenAt: '' },
		);
	}
}

/** Takes every lock row of the credential (a race on the first use may make two): the time it did. */
async function take(
	context: StoreContext,
	table: DataTable,
	credentialId: string,
	holder: string,
): Promise<number> {
	const started = Date.now();
	for (let attempt = 1; ; attempt++) {
		const takenAt = Date.now();
		const data = { holder, takenAt: new Date(takenAt).toISOString() };
		const taken = await table.update({ credentialId, holder: FREE }, data);
		const rows = await table.rows({ credentialId });
		if (!rows.length) {
			await table.insert({ credentialId, holder: FREE, takenAt: '' });
			continue;
		}
		if (rows.every((row) => row.holder === holder)) return takenAt;
		if (taken.length) await table.update({ credentialId, holder }, { holder: FREE, takenAt: '' });
		await freeExpired(table, rows, holder);
		if (Date.now() - started > WAIT_MS) {
			const since = rows.find((row) => row.holder !== FREE && row.holder !== holder)?.takenAt;
			throw new ListChangeLost(
				context.getNode(),
				`The company list was not changed: another n8n process held its lock (table "${LIST_LOCK_TABLE_NAME}" of n8n's Data Tables, taken at ${since ?? 'an unknown time'}) for the ${WAIT_MS / 1000} s this change waited. Do it again.`,
			);
		}
		// Only paces the attempts: whatever the wait, the conditional update decides who holds it.
		const signal =
			'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
		await wait(Math.min(50 * attempt, 1_000) + Math.random() * 100, signal);
	}
}

/**
 * Runs `work` holding the credential's list lock, shared by every n8n process. `work` calls
 * `lease.check()` before each write: past WRITE_WINDOW_MS it throws, so that no write can land after
 * another process took the lock over.
 */
export async function underListLock<T>(
	context: StoreContext,
	credentialId: string,
	work: (lease: ListLease) => Promise<T>,
): Promise<T> {
	const table = lockTable(context);
	const holder = randomUUID();
	const takenAt = await usingTable(
		context,
		async () => await take(context, table, credentialId, holder),
	);
	const lease: ListLease = {
		check: () => {
			if (Date.now() - takenAt <= WRITE_WINDOW_MS) return;
			throw new ListChangeLost(
				context.getNode(),
				`The company list was not written: this change had held its lock for over ${WRITE_WINDOW_MS / 1000} s (n8n's API answered slowly), after which another process may take the lock over. Do it again.`,
			);
		},
	};
	try {
		return await work(lease);
	} finally {
		// A lock not given back (n8n unreachable now) is taken over when its lease runs out.
		await table
			.update({ credentialId, holder }, { holder: FREE, takenAt: '' })
			.catch((error: Error) => {
				context.logger.warn(
					`Partner Payroll: the lock of the company list was not given back (${error.message}); another change can take it in ${LEASE_MS / 1000} s.`,
				);
			});
	}
}
