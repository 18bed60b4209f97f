import {
	ObservableObject,
	type IDataObject,
	type IHookFunctions,
	type INode,
	type IObservableObject,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { PartnerPayrollWebhookTrigger } from '../../../nodes/PartnerPayrollWebhookTrigger/PartnerPayrollWebhookTrigger.node';
import { forgetProcessMemory } from '../../../nodes/PartnerPayrollWebhookTrigger/helpers/deliveries';
import { forgetStoredStates } from '../../../nodes/PartnerPayrollTrigger/helpers/stateStore';
import { forgetRunClaims } from '../../../nodes/shared/runClaims';
import {
	ENDPOINT_SECRET,
	FakeResponse,
	TEST_URL_ENDPOINT_SECRET,
	svixSign,
} from '../../support/svix';

// Plays the part of n8n's webhook context for one request, as n8n 2.x does for a production URL:
// static data of the node, the request's raw body and headers, the response object. n8n answers
// after webhook() returned workflowData; `handOver` plays that answer with n8n's own change mark
// (n8n-workflow's ObservableObject), in the order n8n 2.8 and 2.40 follow (docs/n8n-quirks.md, Q4).

export { ENDPOINT_SECRET, TEST_URL_ENDPOINT_SECRET };

/** n8n restarted (or a test starts): this process's memory of deliveries and run claims is gone. */
export function newProcess(): void {
	forgetProcessMemory();
	forgetRunClaims();
	forgetStoredStates();
}

const node: INode = {
	id: 'webhook-node-1',
	name: 'Partner Payroll Webhook Trigger',
	type: 'n8n-nodes-partner-payroll.partnerPayrollWebhookTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

export interface Delivery {
	id?: string;
	body: IDataObject | string;
	timestamp?: number;
	secret?: string;
	headerPrefix?: 'svix' | 'webhook';
}

export function signedRequest(delivery: Delivery) {
	const id = delivery.id ?? `msg_${Math.random().toString(36).slice(2)}`;
	const timestamp = String(delivery.timestamp ?? Math.floor(Date.now() / 1000));
	const body = typeof delivery.body === 'string' ? delivery.body : JSON.stringify(delivery.body);
	const signature = svixSign(delivery.secret ?? ENDPOINT_SECRET, id, timestamp, body);
	const prefix = delivery.headerPrefix ?? 'svix';
	return {
		rawBody: Buffer.from(body),
		headers: {
			'content-type': 'application/json',
			[`${prefix}-id`]: id,
			[`${prefix}-timestamp`]: timestamp,
			[`${prefix}-signature`]: signature,
		} as Record<string, string>,
	};
}

export interface WebhookAnswer {
	status: number;
	headers: Record<string, string>;
	body: unknown;
	/** The items of the execution n8n would start; undefined when none. */
	items?: IDataObject[];
	response: FakeResponse;
	/** What webhook() returned, and the request's static data (n8n's observed object and its target). */
	result: IWebhookResponseData;
	staticData: IDataObject;
	storedTarget: IDataObject;
}

/** One workflow with the trigger: its static data persists between requests, like n8n's. */
export class WebhookWorkflow {
	staticData: IDataObject = {};
	readonly trigger = new PartnerPayrollWebhookTrigger();
	/** The node's name in the workflow (a rename changes it, never its id). */
	nodeName = node.name;
	/** The Partner API credential that Match Companies of a Partner Credential links. */
	partnerCredentials?: IDataObject;
	/**
	 * n8n 2.40 clears static data's change mark while it starts the execution (a second Workflow on
	 * the same object); 2.8 does not. Both orders are played: 2.40's is the stricter one.
	 */
	n8nClearsChangeMark = true;
	/** The id of the signing secret's credential the node names (n8n's node.credentials). */
	signingCredentialId = 'signing-secret-1';
	/** How many times webhook() read the signing secret's credential. */
	signingSecretReads = 0;
	/** What the trigger logged at warn level, as n8n's log would show it. */
	readonly warnings: string[] = [];
	/** What the trigger wrote to n8n's log as errors: where a user reads why a delivery was refused. */
	loggedErrors: string[] = [];

	constructor(
		public parameters: IDataObject = {},
		public credentials: IDataObject = { signingSecret: ENDPOINT_SECRET },
		readonly workflowId = 'wf-1',
		public mode: 'webhook' | 'manual' = 'webhook',
	) {}

	/** Runs webhook() for one request; the answer is not yet sent when an execution starts. */
	async receive(request: ReturnType<typeof signedRequest>): Promise<WebhookAnswer> {
		const response = new FakeResponse();
		// Each request reads the stored static data anew (n8n loads the workflow per request) and
		// observes it for changes, as n8n's Workflow does.
		const storedTarget = JSON.parse(JSON.stringify(this.staticData)) as IDataObject;
		const staticData = ObservableObject.create(storedTarget);
		const parameters = this.parameters;
		const context = {
			getNode: () => ({
				...node,
				name: this.nodeName,
				credentials: {
					partnerPayrollWebhookApi: { id: this.signingCredentialId, name: 'Signing secret' },
				},
			}),
			getWorkflow: () => ({ id: this.workflowId, name: 'Webhook workflow', active: true }),
			getMode: () => this.mode,
			getNodeParameter: (name: string, fallback?: unknown) =>
				parameterAt(parameters, name, fallback),
			getCredentials: async (type: string) => {
				if (type !== 'partnerPayrollPartnerApi') {
					this.signingSecretReads += 1;
					return this.credentials;
				}
				// As n8n: a credential its displayOptions hide, or none chosen, is an error.
				if (parameters.matchPartnerCompanies !== true || !this.partnerCredentials) {
					throw new Error('Credentials not found');
				}
				return this.partnerCredentials;
			},
			getHeaderData: () => request.headers,
			getRequestObject: () => ({
				headers: request.headers,
				rawBody: request.rawBody,
				readRawBody: async () => undefined,
			}),
			getResponseObject: () => response,
			// As n8n keys it: the workflow's under 'global', a node's own under its name.
			getWorkflowStaticData: (type: 'global' | 'node') => {
				const key = type === 'global' ? 'global' : `node:${this.nodeName}`;
				staticData[key] ??= ObservableObject.create({}, staticData as IObservableObject);
				return staticData[key];
			},
			logger: {
				info: () => {},
				warn: (message: string) => this.warnings.push(message),
				error: (message: string) => this.loggedErrors.push(message),
				debug: () => {},
			},
		} as unknown as IWebhookFunctions;
		const result = await this.trigger.webhook.call(context);
		const items = result.workflowData?.[0]?.map((item) => item.json);
		return {
			status: response.statusCode,
			headers: response.headers,
			body: response.body,
			items,
			response,
			result,
			staticData,
			storedTarget,
		};
	}

	/**
	 * What n8n does after webhook() returned workflowData: creates the execution (2.40 clearing the
	 * change mark on the way), reads the answer's body as the description's `responseData` says,
	 * saves static data if it is marked changed, and answers 200. A failed creation answers 500 and
	 * saves nothing. `answerReachesSender: false`: the sender closed the connection before.
	 */
	handOver(answer: WebhookAnswer, created = true, { answerReachesSender = true } = {}) {
		const respond = (status: number) => {
			// After the sender closed the connection, n8n's answer goes nowhere: no `finish`.
			if (answerReachesSender) answer.response.answer(status);
		};
		if (!created) {
			respond(500);
			return;
		}
		if (this.n8nClearsChangeMark) ObservableObject.create(answer.storedTarget);
		const responseData = this.trigger.description.webhooks?.[0]?.responseData ?? 'firstEntryJson';
		answer.response.body = responseData
			? responseData
			: (answer.result.webhookResponse ?? { message: 'Workflow was started' });
		if (answer.staticData.__dataChanged === true) {
			this.staticData = JSON.parse(JSON.stringify(answer.storedTarget)) as IDataObject;
		}
		respond(200);
	}

	/** receive + handOver, as one sequential delivery. */
	async deliver(request: ReturnType<typeof signedRequest>) {
		const answer = await this.receive(request);
		if (answer.items) this.handOver(answer);
		return answer;
	}

	/**
	 * What n8n does when the workflow is published (and on Listen for Test Event): the webhook's
	 * checkExists in a hook context. Throws what it throws; `logged`: its info lines.
	 */
	async publish() {
		const logged: string[] = [];
		const context = {
			getNode: () => ({ ...node, parameters: this.parameters }),
			getNodeParameter: (name: string, fallback?: unknown) =>
				parameterAt(this.parameters, name, fallback),
			getCredentials: async () => this.credentials,
			getNodeWebhookUrl: () => 'https://n8n.example.com/webhook/abc/webhook',
			logger: {
				info: (message: string) => logged.push(message),
				warn: () => {},
				error: () => {},
				debug: () => {},
			},
		} as unknown as IHookFunctions;
		const exists = await this.trigger.webhookMethods.default.checkExists.call(context);
		return { exists, logged };
	}
}

/** A node parameter as n8n's getNodeParameter reads it: a dotted path, or the fallback. */
function parameterAt(parameters: IDataObject, name: string, fallback?: unknown): unknown {
	const value = name
		.split('.')
		.reduce<unknown>((object, key) => (object as IDataObject | undefined)?.[key], parameters);
	return value === undefined ? fallback : value;
}

export const payrollRun = (
	companyId = 'FR1001',
	payrollMonth = '202611',
	effectiveDate = '2026-11-27T18:00:00+00:00',
) => ({ type: 'payroll.run', data: { companyId, effectiveDate, payrollMonth } });
