import type { IExecuteFunctions } from 'n8n-workflow';

import { isObject } from '../../../shared/bodies';
import { PAGE_SIZE, dataTable, filterOf, query, type RowsRequest } from '../../../shared/dataTable';
import { n8nApiRequest } from '../../../shared/n8nApi';
import { wait } from '../../../shared/wait';
import { COLUMNS, RecordRefusal, type RecordRow, type RecordTable } from './record';

// The record of declarations as a table of this n8n's Data Tables (nodes/shared/dataTable.ts), with
// what the record asks n8n's public API besides: whether an execution ended, whether the key reads a
// workflow.

// n8n quirk Q18: docs/n8n-quirks.md
export const RECORD_TABLE_NAME = 'Partner Payroll billing declarations';

// n8n quirk Q19: docs/n8n-quirks.md
/**
 * Deletes every declaration older than the newest `keep`. n8n's public API pages rows by cursor only (it
 * refuses `offset`), so the declarations are read from the newest, a page at a time, up to the first
 * one beyond `keep`.
 */
async function pruneDeclarations(
	request: RowsRequest,
	rowsOf: (body: unknown) => RecordRow[],
	keep: number,
): Promise<void> {
	const declarations = filterOf({ kind: 'declaration' });
	const newestFirst = { filter: JSON.stringify(declarations), sortBy: 'id:desc', limit: PAGE_SIZE };
	let cursor: string | undefined;
	for (let seen = 0; ; ) {
		const body = await request(
			`?${query(cursor ? { ...newestFirst, cursor } : newestFirst)}`,
			'GET',
		);
		const page = rowsOf(body);
		if (seen + page.length > keep) {
			const older = {
				type: 'and',
				filters: [
					...declarations.filters,
					{ columnName: 'id', condition: 'lte', value: page[keep - seen].id },
				],
			};
			await request(`/delete?${query({ filter: JSON.stringify(older) })}`, 'DELETE');
			return;
		}
		seen += page.length;
		cursor = isObject(body) && typeof body.nextCursor === 'string' ? body.nextCursor : undefined;
		if (!cursor || page.length === 0) return;
	}
}

/** The record's table through n8n's public API. */
export function dataTableRecord(context: IExecuteFunctions): RecordTable {
	const table = dataTable(context, {
		name: RECORD_TABLE_NAME,
		columns: COLUMNS,
		refuse: (why) =>
			new RecordRefusal(`The billing declaration was not sent: ${why}`, 'unreadable'),
	});
	const rowsOf = (body: unknown) => table.rowsOf(body) as RecordRow[];
	return {
		rows: async (match) => (await table.rows(match)) as RecordRow[],
		insert: async (row) => await table.insert(row),
		update: async (match, data) => (await table.update(match, data)) as RecordRow[],
		remove: async (match) => await table.remove(match),
		prune: async (keep) => await pruneDeclarations(table.request, rowsOf, keep),
		executionState: async (executionId) => {
			const path = `/executions/${executionId}`;
			const { statusCode, body } = await n8nApiRequest(context, 'GET', path, undefined, [404]);
			if (statusCode === 404) return 'unseen';
			const status = isObject(body) ? body.status : undefined;
			return ['new', 'running', 'waiting', 'unknown'].includes(String(status))
				? 'running'
				: 'ended';
		},
		// A key without the workflow:read scope (403) cannot tell either.
		canReadWorkflow: async (workflowId) => {
			const path = `/workflows/${encodeURIComponent(workflowId)}`;
			return (await n8nApiRequest(context, 'GET', path, undefined, [403, 404])).statusCode < 300;
		},
		// Only paces the attempts: whatever the wait, the lock decides who sends.
		pause: async (attempt) =>
			await wait(
				Math.min(50 * attempt, 1_000) + Math.random() * 100,
				context.getExecutionCancelSignal(),
			),
	};
}
