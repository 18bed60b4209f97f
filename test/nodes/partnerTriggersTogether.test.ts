import * as runClaims from '../../nodes/shared/runClaims';
import { nextTurn } from '../support/event-loop';
import { startStubService } from '../support/stub-service';
import {
	advanceWallClock,
	createTrigger,
	restoreClock,
	setClock,
	snapshot,
	stubPartnerCredentials,
	type TriggerPoller,
} from './PartnerPayrollTrigger/triggerHarness';
import {
	WebhookWorkflow,
	newProcess,
	payrollRun,
	signedRequest,
	type WebhookAnswer,
} from './PartnerPayrollWebhookTrigger/webhookHarness';

// Both triggers of one workflow, the polling one with the Partner API credential: one poll checks
// many companies, each as its answers come, and claims their runs when the poll ends. A delivery that
// comes in between, for a company the poll has already checked, must not leave the run to a
// hand-over that may fail after Svix has stopped retrying (the poll's state says it fired).

const MONTH = '202611';
const END = '2026-11-27T16:00:00.000Z';
const COMPANIES = ['FR1001', 'FR1002'];
const RUN = `payroll:FR1001:${MONTH}:${END}`;

type Answer = (companyId: string) => Promise<void> | void;

/** The workflow: the webhook trigger, the polling one, and the service they both hear from. */
async function partnerWorkflow(beforeAnswer: Answer) {
	setClock('2026-11-28T12:00:00.000Z');
	newProcess();
	const completed = new Set<string>();
	const webhook = new WebhookWorkflow({}, undefined, 'test-workflow');
	const service = await startStubService(async (request) => {
		const companyId = /\/companies\/([^/]+)\//.exec(request.path)?.[1] ?? '';
		await beforeAnswer(companyId);
		return {
			status: 200,
			json: completed.has(companyId)
				? { month: MONTH, status: 'completed', executionEndDate: END }
				: { month: MONTH, status: 'not_completed', executionEndDate: null },
		};
	});
	const poll: TriggerPoller = createTrigger(
		{ event: 'payrollCompleted', months: 'current' },
		stubPartnerCredentials(service.url, COMPANIES),
		{ staticData: snapshot(webhook.staticData), timezone: 'UTC' },
	);
	const started: string[] = [];
	const pollOnce = async () => {
		const result = await poll.poll();
		for (const item of result?.[0] ?? []) started.push(runClaims.runKeyOf(item.json) ?? '');
		return result;
	};
	return { completed, webhook, service, started, pollOnce };
}

/** Until the poll's check of FR1001 has run: its run is held (or started). */
async function firstCompanyChecked() {
	for (let turn = 0; turn < 10_000; turn += 1) {
		if (runClaims.isRunHeld('test-workflow', RUN)) return;
		await nextTurn();
	}
	throw new Error(`${RUN} was never held`);
}

const delivery = () => signedRequest({ id: 'msg_1', body: payrollRun('FR1001', MONTH, END) });

afterEach(() => {
	restoreClock();
	jest.restoreAllMocks();
});

it("a delivery between a company's check and the end of the poll: the run starts once, even if that hand-over fails and Svix gives up", async () => {
	// FR1001's check has asked whether the webhook holds its run (the poll's step before counting it).
	let checked: () => void = () => {};
	const firstChecked = new Promise<void>((resolve) => (checked = resolve));
	const isRunHeld = runClaims.isRunHeld;
	jest.spyOn(runClaims, 'isRunHeld').mockImplementation((workflowId, key) => {
		const held = isRunHeld(workflowId, key);
		if (key === RUN) checked();
		return held;
	});
	let during: Promise<WebhookAnswer> | undefined;
	const workflow = await partnerWorkflow(async (companyId) => {
		if (companyId === 'FR1002' && workflow.completed.has('FR1001') && !during) {
			// The service's delivery of FR1001's run arrives while the poll still waits for FR1002.
			await firstChecked;
			during = workflow.webhook.receive(delivery());
			await during;
		}
	});
	try {
		await workflow.pollOnce(); // the baseline: nothing completed
		workflow.completed.add('FR1001');
		await workflow.pollOnce();
		const answer = await during!;
		// n8n could not create the execution; Svix then gives up on msg_1: it is never sent again.
		if (answer.items) workflow.webhook.handOver(answer, false);
		await workflow.pollOnce();
		await workflow.pollOnce();
		expect(workflow.started).toEqual([RUN]);
	} finally {
		await workflow.service.close();
	}
});

it('a poll that never ends after a check: the next poll, which gives it up, takes its runs over', async () => {
	let release: () => void = () => {};
	const hang = new Promise<void>((resolve) => (release = resolve));
	let hung = false;
	const workflow = await partnerWorkflow(async (companyId) => {
		if (companyId === 'FR1002' && workflow.completed.has('FR1001') && !hung) {
			hung = true;
			await hang;
		}
	});
	try {
		await workflow.pollOnce(); // the baseline: nothing completed
		workflow.completed.add('FR1001');
		const stuck = workflow.pollOnce();
		await firstCompanyChecked();
		expect((await workflow.webhook.receive(delivery())).status).toBe(409);
		// Twice the poll's budget later n8n polls again: the stuck poll is given up, its result dropped.
		advanceWallClock(61_000);
		await workflow.pollOnce();
		expect(workflow.started).toEqual([RUN]);
		release();
		expect(await stuck).toBeNull();
		expect((await workflow.webhook.receive(delivery())).items).toBeUndefined();
		await workflow.pollOnce();
		expect(workflow.started).toEqual([RUN]);
	} finally {
		release();
		await workflow.service.close();
	}
});
