import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';

import { isObject } from '../../../shared/bodies';
import {
	N8N_API_CREDENTIAL,
	N8nApiProblem,
	n8nApiRequest,
	n8nApiResponse,
	refusal,
} from '../../../shared/n8nApi';
import { wait } from '../../../shared/wait';
import { COLUMNS, RecordRefusal, type RecordRow, type RecordTable, type RowMatch } from './record';

// The record of declarations as a table of this n8n's Data Tables, reached through n8n's public API
// with the Partner Payroll n8n API credential: n8n refuses its Data Tables to community nodes' own
// helpers, and its public API serves the same table to every process (main and workers). The table
// belongs to the personal project of the API key's user.

// n8n quirk Q18: docs/n8n-quirks.md
export const RECORD_TABLE_NAME = 'Partner Payroll billing declarations';

/** The table's id by n8n address: found or created once per process. */
const tableIds = new Map<string, string>();

const filterOf = (match: RowMatch) => ({
	type: 'and',
	filters: Object.entries(match).map(([columnName, value]) => ({
		columnName,
		condition: 'eq',
		value,
	})),
});

const query = (parameters: Record<string, string | number>) =>
	Object.entries(parameters)
		.map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
		.join('&');

/** A row as the record reads it: every column as text ('' when empty). */
function rowOf(raw: unknown): RecordRow {
	if (!isObject(raw) || typeof raw.id !== 'number') {
		throw new RecordRefusal(
			`The billing declaration was not sent: the table "${RECORD_TABLE_NAME}" answered a row the record cannot read`,
			'unreadable',
		);
	}
	const text = (value: unknown) => (value == null ? '' : String(value));
	const columns = Object.fromEntries(COLUMNS.map((column) => [column, text(raw[column])]));
	return { ...(columns as Omit<RecordRow, 'id'>), id: raw.id };
}

const rowsOf = (body: unknown): RecordRow[] => {
	const data = Array.isArray(body) ? body : isObject(body) ? body.data : undefined;
	return Array.isArray(data) ? data.map(rowOf) : [];
};

/** n8n's public API answers at most 250 rows a page. */
const PAGE_SIZE = 250;

type RowsRequest = (
	tail: string,
	method: IHttpRequestMethods,
	body?: IDataObject,
) => Promise<unknown>;

// n8n quirk Q19: docs/n8n-quirks.md
/**
 * Deletes every declaration older than the newest `keep`. n8n's public API pages rows by cursor only (it
 * refuses `offset`), so the declarations are read from the newest, a page at a time, up to the first
 * one beyond `keep`.
 */
async function pruneDeclarations(request: RowsRequest, keep: number): Promise<void> {
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

/** A 404 is an answer here, not a refusal: a table deleted meanwhile, an execution n8n no longer keeps. */
const send = (
	context: IExecuteFunctions,
	method: IHttpRequestMethods,
	path: string,
	body?: IDataObject,
) => n8nApiRequest(context, method, path, body, [404]);

/** The record's table: an existing one of that name, or one created now (its name is unique in a project). */
async function findOrCreateTable(context: IExecuteFunctions): Promise<string> {
	const named = async () => {
		const byName = query({ filter: JSON.stringify({ name: RECORD_TABLE_NAME }), limit: 100 });
		const { body } = await send(context, 'GET', `/data-tables?${byName}`);
		const tables = isObject(body) && Array.isArray(body.data) ? body.data : [];
		return tables.find((table) => isObject(table) && table.name === RECORD_TABLE_NAME) as
			| IDataObject
			| undefined;
	};
	let table = await named();
	if (!table) {
		const columns = COLUMNS.map((name) => ({ name, type: 'string' }));
		const path = '/data-tables';
		const created = await n8nApiResponse(context, 'POST', path, {
			name: RECORD_TABLE_NAME,
			columns,
		});
		// Refused: another process created it first (n8n's name is unique in a project), or n8n said why.
		table = created.statusCode < 300 && isObject(created.body) ? created.body : await named();
		if (!table) {
			const why = refusal(created, { base: created.base, method: 'POST', path });
			throw new N8nApiProblem(
				context.getNode(),
				`The table "${RECORD_TABLE_NAME}" could not be created: ${why}`,
			);
		}
	}
	if (typeof table.id !== 'string') {
		throw new RecordRefusal(
			`The billing declaration was not sent: n8n answered the table "${RECORD_TABLE_NAME}" without its id`,
			'unreadable',
		);
	}
	await checkColumns(context, table.id);
	return table.id;
}

/** A table of that name with other columns is someone else's: the record does not write into it. */
async function checkColumns(context: IExecuteFunctions, id: string): Promise<void> {
	const { body } = await send(context, 'GET', `/data-tables/${id}`);
	const columns = isObject(body) && Array.isArray(body.columns) ? body.columns : [];
	const names = new Set(columns.map((column) => (isObject(column) ? column.name : undefined)));
	const missing = COLUMNS.filter((name) => !names.has(name));
	if (missing.length) {
		throw new RecordRefusal(
			`The billing declaration was not sent: the table "${RECORD_TABLE_NAME}" in n8n's Data Tables has no column ${missing.join(', ')}: it is not the record this node writes (rename it, or delete it to start a new record)`,
			'unreadable',
		);
	}
}

/** The record's table through n8n's public API; a table deleted meanwhile is found or created again once. */
export function dataTableRecord(context: IExecuteFunctions): RecordTable {
	const credentialId = context.getNode().credentials?.[N8N_API_CREDENTIAL]?.id ?? '';
	const rowsPath: RowsRequest = async (tail, method, body) => {
		for (let attempt = 1; ; attempt++) {
			const id = tableIds.get(credentialId) ?? (await findOrCreateTable(context));
			tableIds.set(credentialId, id);
			const response = await send(context, method, `/data-tables/${id}/rows${tail}`, body);
			if (response.statusCode !== 404 || attempt > 1) return response.body;
			tableIds.delete(credentialId);
		}
	};
	const rowsAt = async (tail: string, method: IHttpRequestMethods, body?: IDataObject) =>
		rowsOf(await rowsPath(tail, method, body));
	return {
		rows: async (match) =>
			await rowsAt(
				`?${query({ filter: JSON.stringify(filterOf(match)), limit: PAGE_SIZE })}`,
				'GET',
			),
		insert: async (row) => {
			await rowsPath('', 'POST', { data: [row], returnType: 'id' });
		},
		update: async (match, data) =>
			await rowsAt('/update', 'PATCH', { filter: filterOf(match), data, returnData: true }),
		remove: async (match) => {
			await rowsPath(`/delete?${query({ filter: JSON.stringify(filterOf(match)) })}`, 'DELETE');
		},
		prune: async (keep) => await pruneDeclarations(rowsPath, keep),
		executionState: async (executionId) => {
			const { statusCode, body } = await send(context, 'GET', `/executions/${executionId}`);
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
