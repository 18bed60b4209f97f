import type { IDataObject } from 'n8n-workflow';
import {
	ENDPOINT_SECRET,
	TEST_URL_ENDPOINT_SECRET,
	WebhookWorkflow,
	payrollRun,
	signedRequest,
	newProcess,
} from './webhookHarness';
import { recordDigest } from '../../../nodes/shared/recordDigest';

beforeEach(() => newProcess());

describe('Partner Payroll Webhook Trigger: answers', () => {
	it('starts one execution with the item of a payroll.run delivery', async () => {
		const workflow = new WebhookWorkflow();
		const answer = await workflow.deliver(signedRequest({ id: 'msg_1', body: payrollRun() }));
		expect(answer.items).toEqual([
			{
				event: 'payroll.run',
				companyId: 'FR1001',
				month: '202611',
				monthName: 'November 2026',
				effectiveDate: '2026-11-27T18:00:00.000Z',
				effectiveDateRaw: '2026-11-27T18:00:00+00:00',
				isRerun: false,
				dedupeKey: 'payroll:FR1001:202611',
				messageId: 'msg_1',
				source: 'webhook',
			},
		]);
	});

	it('items of integration events carry no month and a key per change', async () => {
		const workflow = new WebhookWorkflow({
			events: ['integration.activated', 'integration.deactivated'],
		});
		const body = {
			type: 'integration.deactivated',
			data: { companyId: 'GB3001', effectiveDate: '2026-12-01T09:30:00+01:00' },
		};
		const answer = await workflow.deliver(signedRequest({ id: 'msg_i', body }));
		expect(answer.items).toEqual([
			{
				event: 'integration.deactivated',
				companyId: 'GB3001',
				effectiveDate: '2026-12-01T08:30:00.000Z',
				effectiveDateRaw: '2026-12-01T09:30:00+01:00',
				isRerun: false,
				dedupeKey: 'integration:GB3001:deactivated:2026-12-01T08:30:00.000Z',
				messageId: 'msg_i',
				source: 'webhook',
			},
		]);
	});

	it('answers 401 to a bad signature, an old timestamp or missing headers, and touches no state', async () => {
		const workflow = new WebhookWorkflow();
		const refused = [
			signedRequest({ body: payrollRun(), secret: TEST_URL_ENDPOINT_SECRET }),
			signedRequest({ body: payrollRun(), timestamp: Math.floor(Date.now() / 1000) - 400 }),
			{ ...signedRequest({ body: payrollRun() }), headers: { 'content-type': 'application/json' } },
		];
		for (const request of refused) {
			const answer = await workflow.receive(request);
			expect(answer).toMatchObject({ status: 401, items: undefined });
			expect(JSON.stringify(answer.body)).not.toContain(ENDPOINT_SECRET.slice(6));
		}
		expect(workflow.staticData).toEqual({});
		// The refused deliveries left nothing behind: the event still fires.
		expect((await workflow.deliver(signedRequest({ body: payrollRun() }))).items).toHaveLength(1);
	});

	it('accepts the secret of Additional Signing Secrets, and webhook-* headers', async () => {
		const workflow = new WebhookWorkflow(
			{},
			{
				signingSecret: ENDPOINT_SECRET,
				additionalSigningSecrets: `\n${TEST_URL_ENDPOINT_SECRET}\n`,
			},
		);
		const answer = await workflow.deliver(
			signedRequest({
				body: payrollRun(),
				secret: TEST_URL_ENDPOINT_SECRET,
				headerPrefix: 'webhook',
			}),
		);
		expect(answer.items).toHaveLength(1);
	});

	it('answers 401 when the credential holds no usable secret, without saying the secret', async () => {
		const workflow = new WebhookWorkflow(
			{},
			{ signingSecret: ENDPOINT_SECRET.slice('whsec_'.length) },
		);
		const answer = await workflow.receive(signedRequest({ body: payrollRun() }));
		expect(answer).toMatchObject({
			status: 401,
			body: { message: 'The signing secret of this trigger is not usable' },
		});
	});

	it.each([
		['not JSON', 'payroll run!'],
		['JSON without type', '{"data": {}}'],
		[
			'payroll.run without a month',
			JSON.stringify({
				type: 'payroll.run',
				data: { companyId: 'FR1001', effectiveDate: '2026-11-27T18:00:00Z' },
			}),
		],
		['a date without a time of day', JSON.stringify(payrollRun('FR1001', '202611', '2026-11-27'))],
	])(
		'answers 400 with webhook-delivery: abort-message to a signed body that is %s',
		async (_, body) => {
			const workflow = new WebhookWorkflow();
			const answer = await workflow.receive(signedRequest({ body }));
			expect(answer).toMatchObject({
				status: 400,
				headers: { 'webhook-delivery': 'abort-message' },
			});
			expect(answer.items).toBeUndefined();
			expect(workflow.staticData).toEqual({});
			// The sender does not retry it: n8n's log says why.
			expect(workflow.warnings).toEqual([
				expect.stringMatching(/refused message msg_\w+ \(400, not retried by the sender\): the /),
			]);
		},
	);

	it('reads an effectiveDate without an offset as UTC and starts the workflow, keeping the date as sent', async () => {
		const workflow = new WebhookWorkflow();
		const body = payrollRun('FR1001', '202611', '2026-11-27T18:00:00');
		const answer = await workflow.deliver(signedRequest({ id: 'msg_utc', body }));
		expect(answer.items).toEqual([
			expect.objectContaining({
				effectiveDate: '2026-11-27T18:00:00.000Z',
				effectiveDateRaw: '2026-11-27T18:00:00',
			}),
		]);
	});

	it('acknowledges filtered-out events with 200 and no execution: event, company, old month, unknown type', async () => {
		const workflow = new WebhookWorkflow({
			companies: 'selected',
			companyIds: 'FR1001, GB3001',
			options: { ignoreMonthsBefore: '2026-10' },
		});
		const filtered = [
			{
				type: 'integration.activated',
				data: { companyId: 'FR1001', effectiveDate: '2026-11-01T00:00:00Z' },
			},
			payrollRun('ES2001'),
			payrollRun('GB3001', '202609'),
			{ type: 'payroll.deleted', data: {} },
		];
		for (const body of filtered) {
			const answer = await workflow.receive(signedRequest({ body }));
			expect(answer).toMatchObject({ status: 200, items: undefined });
		}
		expect(workflow.staticData).toEqual({});
		expect(
			(await workflow.deliver(signedRequest({ body: payrollRun('GB3001', '202610') }))).items,
		).toHaveLength(1);
	});

	it('fails the delivery with a message naming the field when Ignore Months Before is not a month', async () => {
		const workflow = new WebhookWorkflow({ options: { ignoreMonthsBefore: 'soon' } });
		await expect(workflow.receive(signedRequest({ body: payrollRun() }))).rejects.toThrow(
			'Ignore Months Before must be a month as YYYYMM',
		);
	});

	it('the Test URL (manual mode) shows every verified event and records nothing', async () => {
		const workflow = new WebhookWorkflow({}, undefined, 'wf-1', 'manual');
		const request = signedRequest({ id: 'msg_t', body: payrollRun() });
		expect((await workflow.deliver(request)).items).toHaveLength(1);
		expect((await workflow.deliver(request)).items).toHaveLength(1);
		expect(workflow.staticData).toEqual({});
	});
});

describe('Partner Payroll Webhook Trigger: the duplicate table', () => {
	const firstDate = '2026-11-27T18:00:00+00:00';
	const rerunDate = '2026-11-28T08:15:00+00:00';

	it('same message again (Svix retry or portal replay): 200, no execution', async () => {
		const workflow = new WebhookWorkflow();
		await workflow.deliver(signedRequest({ id: 'msg_1', body: payrollRun() }));
		for (let copy = 0; copy < 3; copy += 1) {
			const answer = await workflow.deliver(signedRequest({ id: 'msg_1', body: payrollRun() }));
			expect(answer).toMatchObject({ status: 200, items: undefined });
			expect(answer.body).toEqual({
				message: 'Duplicate: message msg_1 was already delivered; nothing started',
			});
		}
	});

	it('new message id, same month, same date: 200, no execution (with or without Fire Again on Re-Run)', async () => {
		for (const fireOnRerun of [false, true]) {
			newProcess();
			const workflow = new WebhookWorkflow({ options: { fireOnRerun } });
			await workflow.deliver(signedRequest({ body: payrollRun() }));
			const answer = await workflow.deliver(
				signedRequest({ body: payrollRun('FR1001', '202611', '2026-11-27T19:00:00+01:00') }),
			);
			expect(answer).toMatchObject({ status: 200, items: undefined });
		}
	});

	it('new message id, same month, new date: none without Fire Again on Re-Run, one re-run with it', async () => {
		const off = new WebhookWorkflow();
		await off.deliver(signedRequest({ body: payrollRun('FR1001', '202611', firstDate) }));
		expect(
			(await off.deliver(signedRequest({ body: payrollRun('FR1001', '202611', rerunDate) }))).items,
		).toBeUndefined();

		const on = new WebhookWorkflow({ options: { fireOnRerun: true } }, undefined, 'wf-2');
		await on.deliver(signedRequest({ body: payrollRun('FR1001', '202611', firstDate) }));
		const rerun = await on.deliver(
			signedRequest({ id: 'msg_rerun', body: payrollRun('FR1001', '202611', rerunDate) }),
		);
		expect(rerun.items).toEqual([
			expect.objectContaining({
				isRerun: true,
				dedupeKey: 'payroll:FR1001:202611:2026-11-28T08:15:00.000Z',
			}),
		]);
		// Each date fires once: a re-send of the first or the second date starts nothing.
		for (const date of [firstDate, rerunDate]) {
			expect(
				(await on.deliver(signedRequest({ body: payrollRun('FR1001', '202611', date) }))).items,
			).toBeUndefined();
		}
	});

	it('another month or another company: fires', async () => {
		const workflow = new WebhookWorkflow();
		await workflow.deliver(signedRequest({ body: payrollRun('FR1001', '202611') }));
		expect(
			(await workflow.deliver(signedRequest({ body: payrollRun('FR1001', '202612') }))).items,
		).toHaveLength(1);
		expect(
			(await workflow.deliver(signedRequest({ body: payrollRun('ES2001', '202611') }))).items,
		).toHaveLength(1);
	});

	it('a copy of a delivery still being handed to n8n: 409 (Svix retries); after the hand-over: 200', async () => {
		const workflow = new WebhookWorkflow();
		const request = signedRequest({ id: 'msg_1', body: payrollRun() });
		const first = await workflow.receive(request);
		expect(first.items).toHaveLength(1);
		const copy = await workflow.receive(request);
		expect(copy).toMatchObject({ status: 409, items: undefined, headers: { 'retry-after': '5' } });
		// Another message id for the same month is held too.
		expect((await workflow.receive(signedRequest({ body: payrollRun() }))).status).toBe(409);
		workflow.handOver(first);
		expect(await workflow.receive(request)).toMatchObject({ status: 200, items: undefined });
	});

	it('10 copies at once: one execution, the others 409', async () => {
		const workflow = new WebhookWorkflow();
		const request = signedRequest({ id: 'msg_1', body: payrollRun() });
		const answers = await Promise.all(Array.from({ length: 10 }, () => workflow.receive(request)));
		expect(answers.filter((answer) => answer.items).length).toBe(1);
		expect(answers.filter((answer) => answer.status === 409).length).toBe(9);
	});

	it('a hand-over that failed (n8n could not create the execution): the retry fires', async () => {
		const workflow = new WebhookWorkflow();
		const request = signedRequest({ id: 'msg_1', body: payrollRun() });
		const first = await workflow.receive(request);
		workflow.handOver(first, false);
		expect(workflow.staticData).toEqual({});
		expect((await workflow.deliver(request)).items).toHaveLength(1);
	});

	it.each([
		['n8n 2.40 (clears the change mark while it starts the execution)', true],
		['n8n 2.8', false],
	])(
		'%s: the record is saved with the execution, once, and the 200 answer says what started',
		async (_version, clearsMark) => {
			const workflow = new WebhookWorkflow();
			workflow.n8nClearsChangeMark = clearsMark;
			const answer = await workflow.deliver(signedRequest({ id: 'msg_1', body: payrollRun() }));
			expect(answer.response).toMatchObject({
				statusCode: 200,
				body: { message: 'Workflow started for message msg_1 (payroll.run, company FR1001)' },
			});
			newProcess(); // restart: only what n8n saved is left
			const copy = await workflow.deliver(signedRequest({ id: 'msg_2', body: payrollRun() }));
			expect(copy.items).toBeUndefined();
			expect(copy.status).toBe(200);
		},
	);

	it('the sender closed the connection before n8n answered: the delivery stays claimed until n8n is done, then the record decides', async () => {
		const now = jest.spyOn(Date, 'now');
		try {
			const start = Date.now();
			now.mockReturnValue(start);
			const workflow = new WebhookWorkflow();
			const request = signedRequest({ id: 'msg_1', body: payrollRun() });
			const first = await workflow.receive(request);
			first.response.senderGaveUp(); // n8n goes on creating the execution
			expect((await workflow.receive(request)).status).toBe(409);
			workflow.handOver(first, true, { answerReachesSender: false });
			// Svix's retry, minutes later and signed anew: the claim has expired, and the saved record
			// says it was delivered.
			const later = (minutes: number) => {
				now.mockReturnValue(start + minutes * 60_000);
				return Math.floor(Date.now() / 1000);
			};
			const retry = signedRequest({ id: 'msg_1', body: payrollRun(), timestamp: later(10) });
			expect(await workflow.receive(retry)).toMatchObject({ status: 200, items: undefined });

			// The same, but n8n could not create the execution and its answer reached nobody: the run
			// stays held however late the retry comes (a hold that lapsed with time would let a retry
			// start a run that a loaded n8n was still creating); after a restart the retry fires.
			const other = signedRequest({ id: 'msg_2', body: payrollRun('ES2001') });
			const lost = await workflow.receive(other);
			lost.response.senderGaveUp();
			expect((await workflow.receive(other)).status).toBe(409);
			workflow.handOver(lost, false, { answerReachesSender: false });
			const otherRetry = (minutes: number) =>
				signedRequest({ id: 'msg_2', body: payrollRun('ES2001'), timestamp: later(minutes) });
			expect(await workflow.receive(otherRetry(20))).toMatchObject({
				status: 409,
				items: undefined,
			});
			newProcess();
			expect((await workflow.receive(otherRetry(30))).items).toHaveLength(1);
		} finally {
			now.mockRestore();
		}
	});

	it('the record survives a restart (static data only) and a lost static data save (process memory)', async () => {
		const workflow = new WebhookWorkflow();
		await workflow.deliver(signedRequest({ id: 'msg_1', body: payrollRun() }));
		newProcess(); // restart: static data is all that is left
		expect((await workflow.deliver(signedRequest({ body: payrollRun() }))).items).toBeUndefined();

		// A concurrent save (another delivery's, or a polling trigger's) overwrote the record.
		await workflow.deliver(signedRequest({ id: 'msg_2', body: payrollRun('FR1001', '202612') }));
		workflow.staticData = {};
		expect(
			(await workflow.deliver(signedRequest({ body: payrollRun('FR1001', '202612') }))).items,
		).toBeUndefined();
		// The next delivery that fires writes the union back.
		await workflow.deliver(signedRequest({ body: payrollRun('FR1001', '202701') }));
		const record = (workflow.staticData.global as IDataObject)[
			'partnerPayrollWebhookTrigger:webhook-node-1'
		];
		expect((record as { events: string[] }).events).toEqual(
			expect.arrayContaining(['payroll:FR1001:202612', 'payroll:FR1001:202701'].map(recordDigest)),
		);
	});

	it('renaming the node (and a restart) keeps the record: a copy that arrives afterwards starts nothing', async () => {
		const workflow = new WebhookWorkflow();
		const request = signedRequest({ id: 'msg_1', body: payrollRun() });
		expect((await workflow.deliver(request)).items).toHaveLength(1);
		workflow.nodeName = 'When payroll runs';
		newProcess(); // and n8n restarted: only the stored record knows
		const again = await workflow.deliver(signedRequest({ id: 'msg_2', body: payrollRun() }));
		expect(again.items).toBeUndefined();
		expect(again.status).toBe(200);
	});

	it('two workflows with the trigger keep separate records', async () => {
		const first = new WebhookWorkflow({}, undefined, 'wf-a');
		const second = new WebhookWorkflow({}, undefined, 'wf-b');
		const request = signedRequest({ id: 'msg_1', body: payrollRun() });
		expect((await first.deliver(request)).items).toHaveLength(1);
		expect((await second.deliver(request)).items).toHaveLength(1);
	});
});
