import { randomUUID } from 'crypto';
import { WebhookContext } from 'n8n-core';
import {
	NodeHelpers,
	Workflow,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type INode,
	type INodeParameters,
	type IWebhookData,
} from 'n8n-workflow';

import { PartnerPayrollPartnerApi } from '../../../credentials/PartnerPayrollPartnerApi.credentials';
import { PartnerPayrollConnectTrigger } from '../../../nodes/PartnerPayrollConnectTrigger/PartnerPayrollConnectTrigger.node';
import { FakeDataTables } from '../../support/fake-data-tables';
import { additionalDataFor } from '../../support/n8n-harness';
import { startStubService, type StubRequest } from '../../support/stub-service';

// The Connect trigger as n8n runs it for a request to its production URL (n8n-core's WebhookContext,
// its real request helpers), with a fake of n8n's public API that holds the credentials: the node's
// getCredentials reads that store (n8n reads its database at every call), and the node writes it
// with PATCH /api/v1/credentials/{id} as n8n applies it.

/** What n8n's API sends for a password value it masks, and restores by position on a partial PATCH. */
export const N8N_BLANK_VALUE = '__n8n_BLANK_VALUE_e5362baf-c777-4d57-a609-6eaf1f9e87f6';

/** The n8n API key the fake accepts: random, like the key a user creates in n8n. */
export const N8N_API_KEY = randomUUID();

export const PARTNER_CREDENTIAL_ID = 'partner-cred-1';

/** Where n8n serves the production webhooks of the tests' instance. */
export const WEBHOOK_BASE_URL = 'http://127.0.0.1:5678/webhook';

const WEBHOOK_ID = 'c0ffee00-0000-4000-8000-000000000001';

/** The node's production URL, which the provider must know as a redirect URI. */
export const CONNECT_URL = `${WEBHOOK_BASE_URL}/${WEBHOOK_ID}/connect`;

/** n8n's unredact on a partial update: a masked value takes the stored value at the same place. */
function unredact(incoming: unknown, stored: unknown): unknown {
	if (incoming === N8N_BLANK_VALUE) return stored;
	if (Array.isArray(incoming)) {
		return incoming.map((value, index) =>
			unredact(value, (stored as unknown[] | undefined)?.[index]),
		);
	}
	if (incoming && typeof incoming === 'object') {
		return Object.fromEntries(
			Object.entries(incoming).map(([key, value]) => [
				key,
				unredact(value, (stored as IDataObject | undefined)?.[key]),
			]),
		);
	}
	return incoming;
}

/**
 * What n8n's public API accepts in the Partner API credential's data: its properties but the hidden
 * ones, and n8n's own domain fields (added to every credential with authenticate); nothing else.
 */
const WRITABLE_FIELDS = new Set([
	...new PartnerPayrollPartnerApi().properties
		.filter((property) => property.type !== 'hidden')
		.map((property) => property.name),
	'allowedHttpRequestDomains',
	'allowedDomains',
]);

interface StoredCredential {
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

/**
 * n8n's public API, as much of it as the package uses: list credentials, PATCH one, and Data Tables
 * (where the company list's lock is kept).
 */
export class FakeN8nApi {
	url = '';
	readonly credentials = new Map<string, StoredCredential>();
	/** Off: every /api/v1 route answers 404, as when N8N_PUBLIC_API_DISABLED is set. */
	enabled = true;
	apiKey = N8N_API_KEY;
	/** The requests to the credentials; those to Data Tables are in `dataTables.requests`. */
	readonly requests: Array<{ method: string; path: string }> = [];
	/** The Data Tables of this n8n, which take the same API key. */
	readonly dataTables = new FakeDataTables(N8N_API_KEY);
	/** On: Data Tables answer 403, as n8n does to a key without their scopes. */
	dataTablesRefused = false;
	/** Runs after a PATCH was applied: plays another n8n process writing at that moment. */
	afterPatch?: (id: string) => void;
	/** Awaited before a PATCH of a credential is applied: holds that write back (a slow process). */
	beforePatch?: (id: string) => Promise<void>;
	private service?: { url: string; close(): Promise<void> };

	async start(): Promise<void> {
		this.service = await startStubService((request) => this.handle(request));
		this.url = this.service.url;
	}

	async stop(): Promise<void> {
		await this.service?.close();
	}

	/** Stores a Partner API credential named "Partner" with `data`, and forgets the requests so far. */
	storePartnerCredential(id: string, data: ICredentialDataDecryptedObject): void {
		this.credentials.set(id, { name: 'Partner', type: 'partnerPayrollPartnerApi', data });
		this.requests.length = 0;
	}

	/** The companies as stored in the Partner API credential. */
	companies(
		id = PARTNER_CREDENTIAL_ID,
	): Array<{ companyId: string; label: string; accessToken: string }> {
		const companies = this.credentials.get(id)?.data.companies as { company?: unknown } | undefined;
		return (companies?.company ?? []) as Array<{
			companyId: string;
			label: string;
			accessToken: string;
		}>;
	}

	private async handle(request: StubRequest) {
		const toTables = request.path.startsWith('/api/v1/data-tables');
		if (!toTables) this.requests.push({ method: request.method, path: request.path });
		if (!this.enabled) return { status: 404, json: { message: 'not found' } };
		if (request.headers['x-n8n-api-key'] !== this.apiKey) {
			return { status: 401, json: { message: 'unauthorized' } };
		}
		if (toTables && this.dataTablesRefused) return { status: 403, json: { message: 'Forbidden' } };
		if (toTables) return this.dataTables.answer(request);
		if (request.method === 'GET' && request.path === '/api/v1/credentials') {
			const data = [...this.credentials].map(([id, { name, type }]) => ({ id, name, type }));
			return {
				status: 200,
				json: { data: data.slice(0, Number(request.query.limit ?? 100)), nextCursor: null },
			};
		}
		const id = /^\/api\/v1\/credentials\/([^/]+)$/.exec(request.path)?.[1];
		if (request.method === 'PATCH' && id !== undefined) {
			await this.beforePatch?.(decodeURIComponent(id));
			const stored = this.credentials.get(decodeURIComponent(id));
			if (!stored) return { status: 404, json: { message: 'Credential not found' } };
			const body = JSON.parse(request.body) as { data: IDataObject; isPartialData?: boolean };
			// n8n 2.8.4 validates the body's data against the credential's schema before merging, even a
			// partial one: its required fields, and the if/then of its own domain fields (added to every
			// credential with authenticate) that asks for Allowed Domains whenever Allowed HTTP Request
			// Domains is absent (found by the lab's connect-link.test.js).
			const missing = ['baseUrl', 'authServerUrl', 'allowedHttpRequestDomains'].find(
				(field) => body.data[field] === undefined,
			);
			if (missing) {
				return {
					status: 400,
					json: { message: `request.body.data requires property "${missing}"` },
				};
			}
			// n8n 2.8.4 and 2.40.7: a field the schema does not list is refused, a hidden one included.
			const unknown = Object.keys(body.data).find((field) => !WRITABLE_FIELDS.has(field));
			if (unknown) {
				return {
					status: 400,
					json: {
						message: `request.body.data is not allowed to have the additional property "${unknown}"`,
					},
				};
			}
			// n8n 2.8.4 and 2.40.7: a top-level merge, then masked values restored by position.
			stored.data = (
				body.isPartialData ? unredact({ ...stored.data, ...body.data }, stored.data) : body.data
			) as ICredentialDataDecryptedObject;
			this.afterPatch?.(decodeURIComponent(id));
			return { status: 200, json: { id, name: stored.name, type: stored.type } };
		}
		return { status: 404, json: { message: 'not found' } };
	}
}

/** Express's response as far as the node uses it. */
class RecordedResponse {
	statusCode = 200;
	headers: Record<string, string> = {};
	body = '';
	ended = false;
	setHeader(name: string, value: string) {
		this.headers[name.toLowerCase()] = value;
	}
	status(code: number) {
		this.statusCode = code;
		return this;
	}
	end(body?: string) {
		this.body = body ?? '';
		this.ended = true;
	}
}

/** A browser's cookies for the connect link, as the trigger sets them (one path: the link's). */
export class Browser {
	readonly cookies = new Map<string, string>();
	/** Every Set-Cookie the browser received, as sent. */
	readonly received: string[] = [];

	cookieHeader(): string {
		return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
	}

	receive(setCookie: string | undefined): void {
		if (!setCookie) return;
		this.received.push(setCookie);
		const [pair, ...attributes] = setCookie.split(';').map((part) => part.trim());
		const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
		if (attributes.some((attribute) => /^max-age=0$/i.test(attribute))) this.cookies.delete(name);
		else this.cookies.set(name, value);
	}
}

export interface ConnectAnswer {
	status: number;
	headers: Record<string, string>;
	body: string;
	/** The items of the execution n8n would start; undefined when none. */
	items?: IDataObject[];
	logs: string[];
}

/** A published workflow with the Connect trigger, its credentials in the fake n8n. */
export class ConnectWorkflow {
	readonly trigger = new PartnerPayrollConnectTrigger();
	readonly logs: string[] = [];
	/** The lines logged at warning level. */
	readonly warnings: string[] = [];
	/** The node's parameters as set in the editor; unset ones get their defaults. */
	parameters: IDataObject = {};
	/** n8n's logger: one object for every request, as n8n gives one per process. */
	readonly logger = {
		info: (message: string) => this.logs.push(message),
		warn: (message: string) => {
			this.logs.push(message);
			this.warnings.push(message);
		},
		error: (message: string) => this.logs.push(message),
		debug: () => {},
	};
	/** The administrator's browser: what `open` sends unless told another. */
	readonly browser = new Browser();

	constructor(
		readonly n8n: FakeN8nApi,
		public n8nApiCredential: () => ICredentialDataDecryptedObject = () => ({
			url: n8n.url,
			apiKey: N8N_API_KEY,
		}),
	) {}

	/** One GET of the production URL with this query, from this browser (its cookies sent and kept). */
	async open(
		query: Record<string, string>,
		browser: Browser = this.browser,
	): Promise<ConnectAnswer> {
		const node: INode = {
			id: 'connect-node-1',
			name: 'Partner Payroll Connect Trigger',
			type: 'n8n-nodes-partner-payroll.partnerPayrollConnectTrigger',
			typeVersion: 1,
			position: [0, 0],
			webhookId: WEBHOOK_ID,
			parameters: {},
			credentials: {
				partnerPayrollPartnerApi: { id: PARTNER_CREDENTIAL_ID, name: 'Partner' },
				partnerPayrollN8nApi: { id: 'n8n-api-cred-1', name: 'n8n API' },
			},
		};
		const trigger = this.trigger;
		node.parameters =
			NodeHelpers.getNodeParameters(
				trigger.description.properties,
				this.parameters as INodeParameters,
				true,
				false,
				node,
				trigger.description,
			) ?? {};
		const workflow = new Workflow({
			id: 'wf-connect',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes: {
				getByName: () => trigger,
				getByNameAndVersion: () => trigger,
				getKnownTypes: () => ({}),
			},
		});
		const response = new RecordedResponse();
		const additionalData = additionalDataFor({}) as unknown as IDataObject;
		const helper = additionalData.credentialsHelper as {
			getDecrypted: (
				data: unknown,
				nodeCredentials: { id: string },
				type: string,
			) => Promise<unknown>;
		};
		// What n8n's credentials helper does: the stored data, read afresh at every call.
		helper.getDecrypted = async (_data, nodeCredentials, type) => {
			if (type === 'partnerPayrollN8nApi') return this.n8nApiCredential();
			const stored = this.n8n.credentials.get(nodeCredentials.id);
			if (!stored) throw new Error(`credential ${nodeCredentials.id} is not in the fake n8n`);
			return JSON.parse(JSON.stringify(stored.data));
		};
		Object.assign(additionalData, {
			webhookBaseUrl: WEBHOOK_BASE_URL,
			httpRequest: {
				query,
				headers: browser.cookies.size ? { cookie: browser.cookieHeader() } : {},
				params: {},
				body: {},
			},
			httpResponse: response,
		});
		const webhookData = {
			httpMethod: 'GET',
			node: node.name,
			path: 'connect',
			webhookDescription: trigger.description.webhooks![0],
			workflowId: 'wf-connect',
			workflowExecuteAdditionalData: additionalData,
		} as unknown as IWebhookData;
		const context = new WebhookContext(
			workflow,
			node,
			additionalData as never,
			'webhook',
			webhookData,
			[],
			null,
		);
		Object.defineProperty(context, 'logger', { value: this.logger });
		const result = await trigger.webhook.call(context);
		browser.receive(response.headers['set-cookie']);
		return {
			status: response.statusCode,
			headers: response.headers,
			body: response.body,
			items: result.workflowData?.[0]?.map((item) => item.json),
			logs: [...this.logs],
		};
	}
}
