import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import { isObject } from './bodies';
import {
	N8N_API_CREDENTIAL,
	N8nApiProblem,
	n8nApiRequest,
	n8nApiResponse,
	refusal,
	type StoreContext,
} from './n8nApi';

// A table of this n8n's Data Tables of the package's own (the record of billing declarations, the lock
// of the company list), reached through n8n's public API with the Partner Payroll n8n API credential:
// n8n refuses its Data Tables to community nodes' own helpers, and its public API serves the same
// table to every process (main, workers, webhook processes). The table belongs to the personal project
// of the API key's user. Every value is text. The one atomic step is `update`: a conditional update
// that n8n's database runs as one statement (docs/exactly-once.md "Billing declarations").

/** The table's name and columns, and the error for a table the node cannot use. */
export interface TableSpec {
	name: string;
	columns: readonly string[];
	/** The error to throw: `why` says what is wrong with the table. */
	refuse(why: string): Error;
}

/** A row: every column as text ('' when empty), `id` is the table's own. */
export type TableRow = { id: number } & Record<string, string>;

/** Column = value, all of them. */
export type RowMatch = Record<string, string>;

/** n8n's public API answers at most 250 rows a page. */
export const PAGE_SIZE = 250;

export const filterOf = (match: RowMatch) => ({
	type: 'and',
	filters: Object.entries(match).map(([columnName, value]) => ({
		columnName,
		condition: 'eq',
		value,
	})),
});

export const query = (parameters: Record<string, string | number>) =>
	Object.entries(parameters)
		.map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
		.join('&');

/** A request to the table's rows (`tail` after `/rows`): its answer's body. */
export type RowsRequest = (
	tail: string,
	method: IHttpRequestMethods,
	body?: IDataObject,
) => Promise<unknown>;

export interface DataTable {
	/** Finds or creates the table (once per process), and checks that it is the node's. */
	ready(): Promise<void>;
	request: RowsRequest;
	/** The rows an answer holds. */
	rowsOf(body: unknown): TableRow[];
	rows(match: RowMatch): Promise<TableRow[]>;
	insert(row: RowMatch): Promise<void>;
	/** Sets `data` on every row that matches, in one statement: the rows it changed. */
	update(match: RowMatch, data: RowMatch): Promise<TableRow[]>;
	remove(match: RowMatch): Promise<void>;
}

/** The table's id by n8n API credential and table name: found or created once per process. */
const tableIds = new Map<string, string>();

/** A 404 is an answer here, not a refusal: a table deleted meanwhile. */
const send = (
	context: StoreContext,
	method: IHttpRequestMethods,
	path: string,
	body?: IDataObject,
) => n8nApiRequest(context, method, path, body, [404]);

/** The table: an existing one of that name, or one created now (its name is unique in a project). */
async function findOrCreateTable(context: StoreContext, spec: TableSpec): Promise<string> {
	const named = async () => {
		const byName = query({ filter: JSON.stringify({ name: spec.name }), limit: 100 });
		const { body } = await send(context, 'GET', `/data-tables?${byName}`);
		const tables = isObject(body) && Array.isArray(body.data) ? body.data : [];
		return tables.find((table) => isObject(table) && table.name === spec.name) as
			| IDataObject
			| undefined;
	};
	let table = await named();
	if (!table) {
		const columns = spec.columns.map((name) => ({ name, type: 'string' }));
		const path = '/data-tables';
		const created = await n8nApiResponse(context, 'POST', path, { name: spec.name, columns });
		// Refused: another process created it first (n8n's name is unique in a project), or n8n said why.
		table = created.statusCode < 300 && isObject(created.body) ? created.body : await named();
		if (!table) {
			const why = refusal(created, { base: created.base, method: 'POST', path });
			throw new N8nApiProblem(
				context.getNode(),
				`The table "${spec.name}" could not be created: ${why}`,
			);
		}
	}
	if (typeof table.id !== 'string') {
		throw spec.refuse(`n8n answered the table "${spec.name}" without its id`);
	}
	await checkColumns(context, spec, table.id);
	return table.id;
}

/** A table of that name with other columns is someone else's: the node does not write into it. */
async function checkColumns(context: StoreContext, spec: TableSpec, id: string): Promise<void> {
	const { body } = await send(context, 'GET', `/data-tables/${id}`);
	const columns = isObject(body) && Array.isArray(body.columns) ? body.columns : [];
	const names = new Set(columns.map((column) => (isObject(column) ? column.name : undefined)));
	const missing = spec.columns.filter((name) => !names.has(name));
	if (missing.length) {
		throw spec.refuse(
			`the table "${spec.name}" in n8n's Data Tables has no column ${missing.join(', ')}: it is not the one this node writes (rename it, or delete it for the node to create it anew)`,
		);
	}
}

/** The table through n8n's public API; a table deleted meanwhile is found or created again once. */
export function dataTable(context: StoreContext, spec: TableSpec): DataTable {
	const credentialId = context.getNode().credentials?.[N8N_API_CREDENTIAL]?.id ?? '';
	const key = `${credentialId}\n${spec.name}`;
	const tableId = async () => {
		const id = tableIds.get(key) ?? (await findOrCreateTable(context, spec));
		tableIds.set(key, id);
		return id;
	};
	const request: RowsRequest = async (tail, method, body) => {
		for (let attempt = 1; ; attempt++) {
			const response = await send(
				context,
				method,
				`/data-tables/${await tableId()}/rows${tail}`,
				body,
			);
			if (response.statusCode !== 404 || attempt > 1) return response.body;
			tableIds.delete(key);
		}
	};
	const rowOf = (raw: unknown): TableRow => {
		if (!isObject(raw) || typeof raw.id !== 'number') {
			throw spec.refuse(`the table "${spec.name}" answered a row the node cannot read`);
		}
		const text = (value: unknown) => (value == null ? '' : String(value));
		const columns = Object.fromEntries(spec.columns.map((column) => [column, text(raw[column])]));
		return { ...columns, id: raw.id } as unknown as TableRow;
	};
	const rowsOf = (body: unknown): TableRow[] => {
		const data = Array.isArray(body) ? body : isObject(body) ? body.data : undefined;
		return Array.isArray(data) ? data.map(rowOf) : [];
	};
	return {
		ready: async () => {
			await tableId();
		},
		request,
		rowsOf,
		rows: async (match) =>
			rowsOf(
				await request(
					`?${query({ filter: JSON.stringify(filterOf(match)), limit: PAGE_SIZE })}`,
					'GET',
				),
			),
		insert: async (row) => {
			await request('', 'POST', { data: [row], returnType: 'id' });
		},
		update: async (match, data) =>
			rowsOf(
				await request('/update', 'PATCH', { filter: filterOf(match), data, returnData: true }),
			),
		remove: async (match) => {
			await request(`/delete?${query({ filter: JSON.stringify(filterOf(match)) })}`, 'DELETE');
		},
	};
}
