import * as runClaims from '../../nodes/shared/runClaims';
import { startStubService } from '../support/stub-service';
import {
	createTrigger,
	restoreClock,
	setClock,
	snapshot,
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

afterEach(() => {
	restoreClock();
	jest.restoreAllMocks();
});

it("a delivery between a company's check and the end of the poll: the run starts once, even if that hand-over fails and Svix gives up", async () => {
	setClock('2026-11-28T12:00:00.000Z');
	newProcess();
	const completed = new Set<string>();
	const webhook = new WebhookWorkflow({}, undefined, 'test-workflow');
	const delivery = signedRequest({ id: 'msg_1', body: payrollRun('FR1001', MONTH, END) });
	// FR1001's check has asked whether the webhook holds its run (the poll's one step before counting it).
	let checked: () => void = () => {};
	const firstChecked = new Promise<void>((resolve) => (checked = resolve));
	const isRunHeld = runClaims.isRunHeld;
	jest.spyOn(runClaims, 'isRunHeld').mockImplementation((workflowId, key) => {
		const held = isRunHeld(workflowId, key);
		if (key.startsWith('payroll:FR1001:')) checked();
		return held;
	});
	let during: Promise<WebhookAnswer> | undefined;
	const service = await startStubService(async (request) => {
		const companyId = /\/companies\/([^/]+)\//.exec(request.path)?.[1] ?? '';
		if (companyId === 'FR1002' && completed.has('FR1001') && !during) {
			// The service's delivery of FR1001's run arrives while the poll still waits for FR1002.
			await firstChecked;
			during = webhook.receive(delivery);
			await during;
		}
		return {
			status: 200,
			json: completed.has(companyId)
				? { month: MONTH, status: 'completed', executionEndDate: END }
				: { month: MONTH, status: 'not_completed', executionEndDate: null },
		};
	});
	try {
		const poll = createTrigger(
			{ event: 'payrollCompleted', months: 'current' },
			{
				partnerPayrollPartnerApi: {
					baseUrl: `${service.url}/api/v1`,
					authServerUrl: `${service.url}/oauth`,
					clientId: 'stub-client',
					clientSecret: '',
					companies: {
						company: COMPANIES.map((companyId) => ({
							companyId,
							label: companyId,
							accessToken: `${companyId}:stub`,
						})),
					},
				},
			},
			{ staticData: snapshot(webhook.staticData), timezone: 'UTC' },
		);
		const started: string[] = [];
		const pollOnce = async () => {
			const result = await poll.poll();
			for (const item of result?.[0] ?? []) started.push(String(item.json.companyId));
		};
		await pollOnce(); // the baseline: nothing completed
		completed.add('FR1001');
		await pollOnce();
		const answer = await during!;
		if (answer.items) {
			// n8n could not create the execution; Svix then gives up on msg_1: it is never sent again.
			webhook.handOver(answer, false);
		}
		await pollOnce();
		await pollOnce();
		expect(started).toEqual(['FR1001']);
	} finally {
		await service.close();
	}
});
