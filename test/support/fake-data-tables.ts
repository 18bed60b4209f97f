import { randomUUID } from 'crypto';

import { startStubService, type StubRequest } from './stub-service';

// n8n's public API as far as the record of billing declarations uses it: Data Tables (a table and its
// rows, filters of "and"-ed equalities and comparisons, a conditional update that returns the rows it
// changed) and an execution's status. Each request applies at once, as n8n's database runs one
// statement. The lab runs the same record against real n8n (real-n8n/test/billing-declarations.test.js).

type Row = Record<string, unknown> & { id: number };
type Filter = {
	type?: string;
	filters: Array<{ columnName: string; condition?: string; value: unknown }>;
};

export const FAKE_N8N_API_KEY = randomUUID();

export class FakeDataTables {
	url = '';
	readonly tables = new Map<string, { name: string; columns: string[]; rows: Row[] }>();
	/**
	 * How executions ended, by id ('deleted': n8n no longer knows it; 'hidden': of a workflow the key's
	 * user cannot read, which n8n answers alike); any other is running.
	 */
	readonly executions = new Map<string, string>();
	/** Workflows the key's user cannot read: n8n answers 404. */
	readonly unreadableWorkflows = new Set<string>();
	/** Called once, before the answer, when a request for that path comes (what another execution does meanwhile). */
	readonly onFirstRequest = new Map<string, () => void>();
	readonly requests: Array<{ method: string; path: string }> = [];
	private nextRowId = 1;
	private service?: { url: string; close(): Promise<void> };

	/** The key it accepts: its own, or that of the fake n8n it serves the Data Tables of. */
	constructor(private readonly apiKey = FAKE_N8N_API_KEY) {}

	async start(): Promise<void> {
		this.service = await startStubService((request) => this.answer(request));
		this.url = this.service.url;
	}

	async stop(): Promise<void> {
		await this.service?.close();
	}

	reset(): void {
		this.tables.clear();
		this.executions.clear();
		this.unreadableWorkflows.clear();
		this.onFirstRequest.clear();
		this.requests.length = 0;
	}

	/** The credential that points the node at this fake. */
	credential() {
		return { partnerPayrollN8nApi: { url: this.url, apiKey: FAKE_N8N_API_KEY } };
	}

	/** Every row of the record's declarations, oldest first. */
	declarations(): Row[] {
		return [...this.tables.values()].flatMap((table) =>
			table.rows.filter((row) => row.kind === 'declaration'),
		);
	}

	/** n8n's answer to one request (also served by the fake n8n of the connect tests). */
	answer(request: StubRequest) {
		this.requests.push({ method: request.method, path: request.path });
		if (request.headers['x-n8n-api-key'] !== this.apiKey) {
			return { status: 401, json: { message: 'unauthorized' } };
		}
		const body = request.body ? (JSON.parse(request.body) as Record<string, unknown>) : {};
		const [, , , resource, id, rows, action] = request.path.split('/');
		this.onFirstRequest.get(request.path)?.();
		this.onFirstRequest.delete(request.path);
		if (resource === 'executions') {
			// The harness's executions are running unless a test says how one ended (or that n8n forgot it).
			const status = this.executions.get(id) ?? 'running';
			return ['deleted', 'hidden'].includes(status)
				? { status: 404, json: { message: 'Not Found' } }
				: { status: 200, json: { id, status } };
		}
		if (resource === 'workflows') {
			return this.unreadableWorkflows.has(decodeURIComponent(id))
				? { status: 404, json: { message: 'Not Found' } }
				: { status: 200, json: { id: decodeURIComponent(id), active: false } };
		}
		if (resource !== 'data-tables') return { status: 404, json: { message: 'Not found' } };
		if (!id) return this.tablesRoute(request, body);
		const table = this.tables.get(id);
		if (!table) return { status: 404, json: { message: `Data table ${id} not found` } };
		if (!rows) {
			return {
				status: 200,
				json: {
					id,
					name: table.name,
					columns: table.columns.map((name) => ({ name, type: 'string' })),
				},
			};
		}
		const filter = (text: unknown) =>
			text ? (JSON.parse(String(text)) as Filter) : { filters: [] };
		if (request.method === 'GET') {
			const sorted = [...table.rows.filter(matches(filter(request.query.filter)))];
			if (request.query.sortBy === 'id:desc') sorted.reverse();
			// As n8n: pages by an opaque cursor only; `offset` is refused.
			if (request.query.offset !== undefined) {
				return { status: 400, json: { message: "Unknown query parameter 'offset'" } };
			}
			const cursor = request.query.cursor
				? cursors.decode(String(request.query.cursor))
				: undefined;
			const offset = cursor?.offset ?? 0;
			const limit = cursor?.limit ?? Number(request.query.limit ?? 100);
			const next =
				offset + limit < sorted.length ? cursors.encode({ offset: offset + limit, limit }) : null;
			return {
				status: 200,
				json: { data: sorted.slice(offset, offset + limit), nextCursor: next },
			};
		}
		if (request.method === 'POST') {
			const ids = (body.data as Array<Record<string, unknown>>).map((row) => {
				const id = this.nextRowId++;
				table.rows.push({
					...Object.fromEntries(table.columns.map((name) => [name, null])),
					...row,
					id,
				});
				return { id };
			});
			return { status: 200, json: ids };
		}
		if (request.method === 'PATCH' && action === 'update') {
			const changed = table.rows.filter(matches(body.filter as Filter));
			for (const row of changed) Object.assign(row, body.data);
			return { status: 200, json: body.returnData ? changed.map((row) => ({ ...row })) : true };
		}
		if (request.method === 'DELETE') {
			const match = matches(filter(request.query.filter));
			table.rows = table.rows.filter((row) => !match(row));
			return { status: 200, json: true };
		}
		return { status: 405, json: {} };
	}

	private tablesRoute(request: StubRequest, body: Record<string, unknown>) {
		if (request.method === 'GET') {
			const { name } = JSON.parse(String(request.query.filter ?? '{}')) as { name?: string };
			const data = [...this.tables]
				.filter(([, table]) => !name || table.name.toLowerCase().includes(name.toLowerCase()))
				.map(([id, table]) => ({ id, name: table.name }));
			return { status: 200, json: { data, nextCursor: null } };
		}
		const name = String(body.name);
		if ([...this.tables.values()].some((table) => table.name === name)) {
			return { status: 409, json: { message: `Data table with name '${name}' already exists` } };
		}
		const id = randomUUID().slice(0, 16);
		const columns = (body.columns as Array<{ name: string }>).map((column) => column.name);
		this.tables.set(id, { name, columns, rows: [] });
		return { status: 201, json: { id, name } };
	}
}

/** The fake's page cursor: opaque to the node, as n8n's is. */
const cursors = {
	encode: (page: { offset: number; limit: number }) =>
		Buffer.from(JSON.stringify(page)).toString('base64'),
	decode: (text: string) =>
		JSON.parse(Buffer.from(text, 'base64').toString()) as { offset: number; limit: number },
};

/** Whether a row passes every condition of n8n's filter ("and" only, which is all the record sends). */
function matches(filter: Filter) {
	const operators: Record<string, (a: unknown, b: unknown) => boolean> = {
		eq: (a, b) => a === b,
		lte: (a, b) => Number(a) <= Number(b),
	};
	return (row: Row) =>
		filter.filters.every(({ columnName, condition = 'eq', value }) =>
			operators[condition](row[columnName], value),
		);
}
