import type { IDataObject } from 'n8n-workflow';

import { SandboxSession } from '../support/fixtures';
import {
	createTrigger,
	restoreClock,
	setClock,
	setPayrollStatus,
	snapshot,
	type TriggerPoller,
} from './PartnerPayrollTrigger/triggerHarness';
import {
	WebhookWorkflow,
	newProcess,
	payrollRun,
	signedRequest,
} from './PartnerPayrollWebhookTrigger/webhookHarness';

// One workflow with both triggers, as n8n runs it: the webhook trigger reads the workflow's saved
// static data at every delivery and n8n saves it whole after the execution was created; the polling
// trigger works on the copy its activation loaded, which n8n saves whole after a poll that returned
// items. A payroll run either of them sees starts the workflow once.

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());

const MONTH = '202611';
const END = '2026-11-27T16:00:00.000Z';
const RUN_KEY = `payroll:FR1001:${MONTH}`;

/** The workflow: its saved static data (the webhook harness's) and the poll's activation. */
let webhook: WebhookWorkflow;
let poll: TriggerPoller;

async function activatePoll(parameters: IDataObject = {}): Promise<void> {
	const token = await session.token('FR1001');
	poll = createTrigger(
		{
			event: 'payrollCompleted',
			companyId: 'FR1001',
			months: 'current',
			options: { fireForAlreadyCompleted: true },
			...parameters,
		},
		session.accessToken(token),
		{ staticData: snapshot(webhook.staticData) },
	);
}

/** One scheduled poll, and n8n's save of the poll's static data when it returned items. */
async function pollOnce(): Promise<IDataObject[]> {
	const result = await poll.poll();
	if (result && poll.takeSave()) webhook.staticData = snapshot(poll.staticData);
	return result?.[0].map((item) => item.json) ?? [];
}

/** The service's delivery of the month's run (a new message id each time). */
const delivery = () => signedRequest({ body: payrollRun('FR1001', MONTH, END) });

beforeEach(async () => {
	await session.reset();
	setClock('2026-11-28T12:00:00.000Z');
	newProcess();
	webhook = new WebhookWorkflow({}, undefined, 'test-workflow');
	await activatePoll();
	// The first poll: nothing completed yet.
	expect(await pollOnce()).toEqual([]);
	await setPayrollStatus(session, 'FR1001', MONTH, 'completed', END);
});
afterEach(() => restoreClock());

describe('the webhook and the polling trigger of one workflow', () => {
	it('the webhook first, then the poll: the workflow starts once', async () => {
		const first = await webhook.deliver(delivery());
		expect(first.items).toEqual([expect.objectContaining({ dedupeKey: RUN_KEY })]);
		expect(await pollOnce()).toEqual([]);
		// The poll's state moved on: it will not come back to the run either.
		expect(await pollOnce()).toEqual([]);
	});

	it('the poll first (the delivery was late), then the delivery: the workflow starts once', async () => {
		expect(await pollOnce()).toEqual([expect.objectContaining({ dedupeKey: RUN_KEY })]);
		const late = await webhook.deliver(delivery());
		expect(late.items).toBeUndefined();
		expect(late).toMatchObject({ status: 200 });
		expect((late.body as { message: string }).message).toContain(`Duplicate: ${RUN_KEY}:${END}`);
	});

	it('at the same moment: the delivery is being handed to n8n while the poll sees the run', async () => {
		const answer = await webhook.receive(delivery());
		expect(answer.items).toHaveLength(1);
		expect(await pollOnce()).toEqual([]);
		webhook.handOver(answer);
		expect(await pollOnce()).toEqual([]);
	});

	it('n8n could not create the webhook execution: the next poll starts the run', async () => {
		const answer = await webhook.receive(delivery());
		webhook.handOver(answer, false);
		expect(await pollOnce()).toEqual([expect.objectContaining({ dedupeKey: RUN_KEY })]);
	});

	it('a hand-over n8n dropped without an answer: the poll that saw the run meanwhile does not count it, and the poll after the restart starts it', async () => {
		await activatePoll({ months: 'both' });
		// The delivery is being handed to n8n; n8n never answers it (the sender closed the connection).
		const answer = await webhook.receive(delivery());
		expect(answer.items).toHaveLength(1);
		// A poll meanwhile starts another run (October), so n8n saves the poll's state.
		expect(await pollOnce()).toEqual([
			expect.objectContaining({ dedupeKey: 'payroll:FR1001:202610' }),
		]);
		newProcess();
		await activatePoll({ months: 'both' });
		expect(await pollOnce()).toEqual([expect.objectContaining({ dedupeKey: RUN_KEY })]);
		expect(await pollOnce()).toEqual([]);
	});

	it('a restart after the webhook started the run: the saved claims keep the poll from starting it', async () => {
		await webhook.deliver(delivery());
		newProcess();
		await activatePoll();
		// A first poll after the restart that fires months already completed: the run is not one of them.
		expect(await pollOnce()).toEqual([]);
	});

	it('a restart after the poll started the run: a replay of the delivery starts nothing', async () => {
		expect(await pollOnce()).toHaveLength(1);
		newProcess();
		expect((await webhook.deliver(delivery())).items).toBeUndefined();
	});

	it("the poll's save, made from the copy its activation loaded, does not lose the webhook's run across a restart", async () => {
		// The poll's activation loaded static data before the webhook recorded the run.
		await activatePoll({ months: 'both' });
		await webhook.deliver(delivery());
		// Another run the poll starts: n8n saves the poll's whole copy, whose webhook record is older.
		await setPayrollStatus(session, 'FR1001', '202610', 'completed', '2026-11-28T09:00:00.000Z');
		expect(await pollOnce()).toEqual([
			expect.objectContaining({ dedupeKey: 'payroll:FR1001:202610' }),
		]);
		newProcess();
		// The service sends the run again with a new message id: the webhook's own record lost it,
		// the claims saved with the poll's state did not.
		expect((await webhook.deliver(delivery())).items).toBeUndefined();
	});
});
