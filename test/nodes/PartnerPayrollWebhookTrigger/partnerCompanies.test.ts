import { NodeHelpers, type IDataObject } from 'n8n-workflow';

import { SandboxSession } from '../../support/fixtures';
import { startStubService } from '../../support/stub-service';
import { ENDPOINT_SECRET, WebhookWorkflow, signedRequest, newProcess } from './webhookHarness';

// The trigger with a Partner API credential linked, fed by the sandbox's own signed deliveries over
// HTTP (as Svix sends them), each answered by the trigger as n8n would (an execution, then 200).

const session = new SandboxSession();
let endpoint: { url: string; close(): Promise<void> };
let workflow: WebhookWorkflow;
/** The items of every execution the deliveries started, in order. */
let executions: IDataObject[][];

const INTEGRATION_EVENTS = ['integration.activated', 'integration.deactivated'];
const IN_CREDENTIAL = ['FR1001', 'FR1002', 'ES2001'];

interface SentMessage {
	id: string;
	deliveries: Array<{ state: string }>;
}

async function integration(
	companyId: string,
	event: 'activated' | 'deactivated',
	effectiveDate: string,
): Promise<SentMessage> {
	return (await session.control('POST', '/webhooks/integration', {
		companyId,
		event,
		effectiveDate,
	})) as SentMessage;
}

/** The portal's Resend: the same message (same id) again. */
async function resend(message: SentMessage): Promise<SentMessage> {
	return (await session.control('POST', '/webhooks/resend', {
		messageId: message.id,
	})) as SentMessage;
}

/** A workflow whose trigger selects `parameters`' events, linked to a credential of IN_CREDENTIAL. */
async function partnerWorkflow(parameters: IDataObject): Promise<WebhookWorkflow> {
	const created = new WebhookWorkflow({ matchPartnerCompanies: true, ...parameters });
	created.partnerCredentials = (await session.partner(IN_CREDENTIAL)).partnerPayrollPartnerApi;
	return created;
}

beforeAll(async () => {
	await session.start();
	endpoint = await startStubService(async ({ headers, body }) => {
		const answer = await workflow.receive({
			rawBody: Buffer.from(body),
			headers: headers as Record<string, string>,
		});
		if (answer.items) {
			executions.push(answer.items);
			workflow.handOver(answer);
		}
		return {
			status: answer.response.statusCode,
			json: answer.body ?? {},
			headers: answer.headers,
		};
	});
});

afterAll(async () => {
	await endpoint?.close();
	await session.stop();
});

beforeEach(async () => {
	newProcess();
	executions = [];
	await session.control('DELETE', '/webhooks');
	await session.control('POST', '/webhooks', {
		url: `${endpoint.url}/webhook`,
		secret: ENDPOINT_SECRET,
	});
	// No retry: each test sends what it means to send.
	await session.control('POST', '/webhooks/settings', { retryScheduleMs: [] });
	workflow = await partnerWorkflow({ events: INTEGRATION_EVENTS });
});

describe('Partner Payroll Webhook Trigger with a Partner API credential: connection health', () => {
	it('integration.deactivated: one connectionLost, however often it is delivered or repeated', async () => {
		const deactivated = await integration('FR1002', 'deactivated', '2026-12-01T09:30:00Z');
		expect(deactivated.deliveries).toEqual([expect.objectContaining({ state: 'delivered' })]);
		expect(executions).toEqual([
			[
				{
					event: 'connectionLost',
					companyId: 'FR1002',
					label: 'Client FR1002',
					reason: 'integration.deactivated',
					effectiveDate: '2026-12-01T09:30:00.000Z',
					dedupeKey: 'integration:FR1002:deactivated:2026-12-01T09:30:00.000Z',
					messageId: deactivated.id,
					source: 'webhook',
				},
			],
		]);
		// The same message again (Svix's retry, the portal's Resend), then a second deactivation: delivered, nothing started.
		expect((await resend(deactivated)).deliveries.at(-1)?.state).toBe('delivered');
		const again = await integration('FR1002', 'deactivated', '2026-12-02T10:00:00Z');
		expect(again.deliveries).toEqual([expect.objectContaining({ state: 'delivered' })]);
		expect(executions).toHaveLength(1);
		// Another company's loss is its own.
		await integration('ES2001', 'deactivated', '2026-12-02T11:00:00Z');
		expect(
			executions.map((items) => items.map(({ event, companyId }) => [event, companyId])),
		).toEqual([[['connectionLost', 'FR1002']], [['connectionLost', 'ES2001']]]);
	});

	it('integration.activated after a loss: one connectionRestored; then a new loss is reported again', async () => {
		await integration('FR1001', 'deactivated', '2026-12-01T09:00:00Z');
		const activated = await integration('FR1001', 'activated', '2026-12-03T09:00:00Z');
		await resend(activated);
		await integration('FR1001', 'activated', '2026-12-04T09:00:00Z');
		await integration('FR1001', 'deactivated', '2026-12-05T09:00:00Z');
		expect(executions).toEqual([
			[expect.objectContaining({ event: 'connectionLost', companyId: 'FR1001' })],
			[
				{
					event: 'connectionRestored',
					companyId: 'FR1001',
					label: 'Client FR1001',
					effectiveDate: '2026-12-03T09:00:00.000Z',
					dedupeKey: 'integration:FR1001:activated:2026-12-03T09:00:00.000Z',
					messageId: activated.id,
					source: 'webhook',
				},
			],
			[expect.objectContaining({ event: 'connectionLost', companyId: 'FR1001' })],
		]);
	});

	it('integration.activated of a company whose connection was never lost starts nothing (the connect link reports it)', async () => {
		const activated = await integration('FR1001', 'activated', '2026-12-03T09:00:00Z');
		expect(activated.deliveries).toEqual([expect.objectContaining({ state: 'delivered' })]);
		expect(executions).toEqual([]);
	});

	it('a deactivation delivered after a later activation (an older message retried late) reports nothing', async () => {
		await integration('FR1001', 'deactivated', '2026-12-01T09:00:00Z');
		await integration('FR1001', 'activated', '2026-12-03T09:00:00Z');
		await integration('FR1001', 'deactivated', '2026-12-02T09:00:00Z');
		expect(executions.map(([item]) => item.event)).toEqual([
			'connectionLost',
			'connectionRestored',
		]);
	});

	it('integration.activated of a company not in the credential: the to-do item, naming the company', async () => {
		const activated = await integration('GB3001', 'activated', '2026-12-03T09:00:00Z');
		expect(executions).toEqual([
			[
				{
					event: 'companyNotConnected',
					companyId: 'GB3001',
					label: 'GB3001',
					todo: 'Connect company GB3001 with the connect link: it is not in the Partner API credential',
					effectiveDate: '2026-12-03T09:00:00.000Z',
					dedupeKey: 'integration:GB3001:activated:2026-12-03T09:00:00.000Z',
					messageId: activated.id,
					source: 'webhook',
				},
			],
		]);
		// Its deactivation is nothing to the partner: the credential holds no connection to lose.
		await integration('GB3001', 'deactivated', '2026-12-04T09:00:00Z');
		expect(executions).toHaveLength(1);
	});

	it('integration.activated of a company whose row cannot serve requests: the to-do says to connect it again, and why', async () => {
		workflow.partnerCredentials = (
			await session.partner(IN_CREDENTIAL, (rows) =>
				rows.map((row) =>
					row.companyId === 'FR1002' ? { ...row, accessToken: rows[0].accessToken } : row,
				),
			)
		).partnerPayrollPartnerApi;
		await integration('FR1002', 'activated', '2026-12-03T09:00:00Z');
		const [[item]] = executions;
		expect(item).toMatchObject({
			event: 'companyNotConnected',
			companyId: 'FR1002',
			label: 'Client FR1002',
			todo: 'Connect company FR1002 again with the connect link: its entry in the Partner API credential is not usable',
		});
		expect(item.problem).toContain('holds the token of company FR1001, not of FR1002');
		expect(JSON.stringify(executions)).not.toMatch(/sbx_/);
	});

	it('the health is kept in static data, ids and dates only, and survives a restart (no process memory)', async () => {
		await integration('FR1002', 'deactivated', '2026-12-01T09:30:00Z');
		const stored = JSON.stringify(workflow.staticData);
		expect(stored).toContain(
			'"health":{"FR1002":{"lost":"integration.deactivated","at":"2026-12-01T09:30:00.000Z"}}',
		);
		expect(stored).not.toMatch(/sbx_|Client FR1002/);
		newProcess();
		await integration('FR1002', 'deactivated', '2026-12-02T09:30:00Z');
		await integration('FR1002', 'activated', '2026-12-03T09:30:00Z');
		expect(executions.map(([item]) => item.event)).toEqual([
			'connectionLost',
			'connectionRestored',
		]);
	});

	it('payroll.run items carry the label of the credential (the id for a company it does not hold)', async () => {
		workflow = await partnerWorkflow({ events: ['payroll.run'] });
		for (const companyId of ['FR1001', 'GB3001']) {
			await session.control('POST', '/webhooks/payroll-run', { companyId, month: '202610' });
		}
		expect(executions.map(([item]) => [item.companyId, item.label, item.dedupeKey])).toEqual([
			['FR1001', 'Client FR1001', 'payroll:FR1001:202610'],
			['GB3001', 'GB3001', 'payroll:GB3001:202610'],
		]);
		expect(Object.keys(executions[0][0])).toEqual([
			'event',
			'companyId',
			'label',
			'month',
			'monthName',
			'effectiveDate',
			'effectiveDateRaw',
			'isRerun',
			'dedupeKey',
			'messageId',
			'source',
		]);
	});

	it('without the option, the same deliveries give the items as before: no label, integration events as they are', async () => {
		workflow = new WebhookWorkflow({ events: ['payroll.run', ...INTEGRATION_EVENTS] });
		const first = await integration('FR1002', 'deactivated', '2026-12-01T09:30:00Z');
		await integration('FR1002', 'deactivated', '2026-12-02T09:30:00Z');
		await session.control('POST', '/webhooks/payroll-run', {
			companyId: 'FR1001',
			month: '202610',
		});
		expect(executions.map(([item]) => item.event)).toEqual([
			'integration.deactivated',
			'integration.deactivated',
			'payroll.run',
		]);
		expect(executions[0][0]).toEqual({
			event: 'integration.deactivated',
			companyId: 'FR1002',
			effectiveDate: '2026-12-01T09:30:00.000Z',
			effectiveDateRaw: '2026-12-01T09:30:00+00:00',
			isRerun: false,
			dedupeKey: 'integration:FR1002:deactivated:2026-12-01T09:30:00.000Z',
			messageId: first.id,
			source: 'webhook',
		});
		expect(executions.flat().some((item) => 'label' in item)).toBe(false);
		expect(JSON.stringify(workflow.staticData)).not.toContain('health');
	});

	it('the Test URL shows the change an integration event makes, and stores nothing', async () => {
		workflow.mode = 'manual';
		await integration('FR1001', 'activated', '2026-12-03T09:00:00Z');
		await integration('FR1001', 'deactivated', '2026-12-04T09:00:00Z');
		await integration('FR1001', 'deactivated', '2026-12-04T09:00:00Z');
		expect(executions.map(([item]) => item.event)).toEqual([
			'connectionRestored',
			'connectionLost',
			'connectionLost',
		]);
		expect(workflow.staticData).toEqual({});
	});
});

describe('Partner Payroll Webhook Trigger with a Partner API credential: changes at once', () => {
	const deactivation = (effectiveDate: string) => ({
		type: 'integration.deactivated',
		data: { companyId: 'FR1001', effectiveDate },
	});

	it("a change of a company still being handed to n8n holds the company's next one: 409, and its retry reports nothing", async () => {
		const first = await workflow.receive(
			signedRequest({ body: deactivation('2026-12-01T09:00:00Z') }),
		);
		const second = signedRequest({ body: deactivation('2026-12-02T09:00:00Z') });
		expect(await workflow.receive(second)).toMatchObject({ status: 409, items: undefined });
		workflow.handOver(first);
		expect(await workflow.receive(second)).toMatchObject({ status: 200, items: undefined });
		expect(first.items).toEqual([expect.objectContaining({ event: 'connectionLost' })]);
	});

	it('a static data save of another delivery that wins over the loss does not make it reported twice', async () => {
		const payroll = {
			type: 'payroll.run',
			data: {
				companyId: 'FR1002',
				effectiveDate: '2026-11-27T18:00:00+00:00',
				payrollMonth: '202611',
			},
		};
		workflow.parameters.events = ['payroll.run', ...INTEGRATION_EVENTS];
		// Both read the same static data; the payroll run's save comes last and holds no loss.
		const run = await workflow.receive(signedRequest({ body: payroll }));
		const lost = await workflow.receive(
			signedRequest({ body: deactivation('2026-12-01T09:00:00Z') }),
		);
		workflow.handOver(lost);
		workflow.handOver(run);
		const record = (workflow.staticData.global as IDataObject)[
			'partnerPayrollWebhookTrigger:webhook-node-1'
		];
		expect(JSON.stringify(record)).not.toContain('FR1001');
		const again = await workflow.deliver(
			signedRequest({ body: deactivation('2026-12-02T09:00:00Z') }),
		);
		expect(again).toMatchObject({ status: 200, items: undefined });
	});
});

describe('Partner Payroll Webhook Trigger: Match Companies of a Partner Credential', () => {
	it('asks for the Partner API credential only when on, and the signing secret always', () => {
		const { description } = new WebhookWorkflow().trigger;
		const shown = (matchPartnerCompanies: boolean) =>
			(description.credentials ?? [])
				.filter((credential) =>
					NodeHelpers.displayParameter(
						{ matchPartnerCompanies },
						credential,
						{ typeVersion: 1 },
						description,
					),
				)
				.map(({ name }) => name);
		expect(shown(false)).toEqual(['partnerPayrollWebhookApi']);
		expect(shown(true)).toEqual(['partnerPayrollWebhookApi', 'partnerPayrollPartnerApi']);
	});
});
