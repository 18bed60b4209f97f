import {
	ENDPOINT_SECRET,
	TEST_URL_ENDPOINT_SECRET,
	WebhookWorkflow,
	newProcess,
	payrollRun,
	signedRequest,
} from './webhookHarness';

// Reading a credential in a webhook costs n8n 2.40 an isolate (n8n quirk Q20): a copy of a message
// already handed to n8n is answered without reading it, and deliveries at the same moment share one
// read; everything that could start the workflow is verified with the credential as read for it.

beforeEach(() => newProcess());

const DUPLICATE = { message: 'Duplicate: message msg_1 was already delivered; nothing started' };

async function deliveredOnce(workflow = new WebhookWorkflow()) {
	const request = signedRequest({ id: 'msg_1', body: payrollRun() });
	const first = await workflow.deliver(request);
	expect(first.items).toHaveLength(1);
	return { workflow, request, readsAfterFirst: workflow.signingSecretReads };
}

describe('Partner Payroll Webhook Trigger: a copy of a delivered message', () => {
	it('is answered as a duplicate without reading the credential again, and starts nothing', async () => {
		const { workflow, request, readsAfterFirst } = await deliveredOnce();
		expect(readsAfterFirst).toBe(1);
		const copy = await workflow.deliver(request);
		expect({ status: copy.status, body: copy.body, items: copy.items }).toEqual({
			status: 200,
			body: DUPLICATE,
			items: undefined,
		});
		expect(workflow.signingSecretReads).toBe(readsAfterFirst);
	});

	it('a new message always reads the credential: signed with a secret removed from it, it is refused', async () => {
		const { workflow } = await deliveredOnce();
		workflow.credentials = { signingSecret: TEST_URL_ENDPOINT_SECRET };
		const reads = workflow.signingSecretReads;
		const forged = await workflow.deliver(
			signedRequest({ id: 'msg_2', body: payrollRun('FR1002'), secret: ENDPOINT_SECRET }),
		);
		expect({ status: forged.status, items: forged.items }).toEqual({
			status: 401,
			items: undefined,
		});
		expect(workflow.signingSecretReads).toBe(reads + 1);
		const signedNow = await workflow.deliver(
			signedRequest({ id: 'msg_3', body: payrollRun('FR1002'), secret: TEST_URL_ENDPOINT_SECRET }),
		);
		expect(signedNow.items).toHaveLength(1);
	});

	it('a copy signed with the removed secret still starts nothing (answered as the duplicate it is)', async () => {
		const { workflow, request } = await deliveredOnce();
		workflow.credentials = { signingSecret: TEST_URL_ENDPOINT_SECRET };
		const copy = await workflow.deliver(request);
		expect({ status: copy.status, body: copy.body, items: copy.items }).toEqual({
			status: 200,
			body: DUPLICATE,
			items: undefined,
		});
	});

	it('a copy whose signature the remembered keys do not match goes the whole way: 401', async () => {
		const { workflow } = await deliveredOnce();
		const tampered = signedRequest({
			id: 'msg_1',
			body: payrollRun(),
			secret: TEST_URL_ENDPOINT_SECRET,
		});
		const reads = workflow.signingSecretReads;
		const answer = await workflow.deliver(tampered);
		expect(answer.status).toBe(401);
		expect(workflow.signingSecretReads).toBe(reads + 1);
	});

	it('after the node was given another credential, a copy is checked with that credential', async () => {
		const { workflow, request } = await deliveredOnce();
		workflow.signingCredentialId = 'signing-secret-2';
		workflow.credentials = { signingSecret: TEST_URL_ENDPOINT_SECRET };
		const reads = workflow.signingSecretReads;
		const copy = await workflow.deliver(request);
		expect(copy.status).toBe(401);
		expect(workflow.signingSecretReads).toBe(reads + 1);
	});

	it('a copy that arrives while the first is still being handed to n8n is answered 409, as before', async () => {
		const workflow = new WebhookWorkflow();
		const request = signedRequest({ id: 'msg_1', body: payrollRun() });
		const first = await workflow.receive(request);
		expect(first.items).toHaveLength(1);
		const copy = await workflow.receive(request);
		expect(copy.status).toBe(409);
		workflow.handOver(first);
		const later = await workflow.deliver(request);
		expect(later.body).toEqual(DUPLICATE);
	});

	it('a first delivery whose hand-over failed is not a duplicate: its retry starts the workflow', async () => {
		const workflow = new WebhookWorkflow();
		const request = signedRequest({ id: 'msg_1', body: payrollRun() });
		workflow.handOver(await workflow.receive(request), false);
		const retry = await workflow.deliver(request);
		expect(retry.items).toHaveLength(1);
	});

	it('after a restart, the first copy reads the credential and finds the message in the stored record', async () => {
		const { workflow, request } = await deliveredOnce();
		newProcess();
		const reads = workflow.signingSecretReads;
		const copy = await workflow.deliver(request);
		expect(copy.body).toEqual(DUPLICATE);
		expect(workflow.signingSecretReads).toBe(reads + 1);
		await workflow.deliver(request);
		expect(workflow.signingSecretReads).toBe(reads + 1);
	});

	it('the Test URL always reads the credential and shows the event', async () => {
		const { workflow, request } = await deliveredOnce();
		workflow.mode = 'manual';
		const reads = workflow.signingSecretReads;
		const shown = await workflow.receive(request);
		expect(shown.items).toHaveLength(1);
		expect(workflow.signingSecretReads).toBe(reads + 1);
	});
});

describe('Partner Payroll Webhook Trigger: deliveries at the same moment', () => {
	const receiveTogether = (workflow: WebhookWorkflow, companies: string[]) =>
		Promise.all(
			companies.map((companyId, index) =>
				workflow.receive(
					signedRequest({ id: `msg_${companyId}_${index}`, body: payrollRun(companyId) }),
				),
			),
		);

	it('share one read of the credential, and each starts its own execution', async () => {
		const workflow = new WebhookWorkflow();
		const answers = await receiveTogether(workflow, ['FR1001', 'FR1002', 'FR1003']);
		expect(answers.map((answer) => answer.items?.[0]?.companyId)).toEqual([
			'FR1001',
			'FR1002',
			'FR1003',
		]);
		expect(workflow.signingSecretReads).toBe(1);
	});

	it('a delivery after the shared read ended reads the credential again: a secret removed meanwhile starts nothing', async () => {
		const workflow = new WebhookWorkflow();
		for (const answer of await receiveTogether(workflow, ['FR1001', 'FR1002']))
			workflow.handOver(answer);
		workflow.credentials = { signingSecret: TEST_URL_ENDPOINT_SECRET };
		const forged = await workflow.deliver(
			signedRequest({ id: 'msg_later', body: payrollRun('FR1003') }),
		);
		expect({ status: forged.status, items: forged.items }).toEqual({
			status: 401,
			items: undefined,
		});
		expect(workflow.signingSecretReads).toBe(2);
	});
});
