import type { IDataObject } from 'n8n-workflow';

import { SandboxSession } from '../../../support/fixtures';
import { pause } from '../../../support/network';
import { POLL_BUDGET_MS } from '../../../../nodes/PartnerPayrollTrigger/helpers/pollBudget';
import { forgetStoredStates } from '../../../../nodes/PartnerPayrollTrigger/helpers/stateStore';
import {
	advanceWallClock,
	captureWarnings,
	createTrigger,
	requestLines,
	restoreClock,
	setClock,
	setPayrollStatus,
	snapshot,
	type TriggerPoller,
} from '../triggerHarness';

// Exactly once at the edges (reopened months: payrollCompleted.test.ts): edits of the node (time
// zone, Months, company), outages across a month boundary and a republish while a poll is still running. Each edit is
// played as n8n plays it: the same static data, the node's new parameters.

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());
afterEach(() => restoreClock());

async function trigger(
	parameters: IDataObject,
	options: { timezone?: string; staticData?: IDataObject; companyId?: string } = {},
): Promise<TriggerPoller> {
	const companyId = options.companyId ?? 'FR1001';
	const token = await session.token(companyId);
	return createTrigger(
		{ event: 'payrollCompleted', companyId, ...parameters },
		session.accessToken(token),
		options,
	);
}

/** The same trigger after the user edited its parameters (state kept). */
async function edited(
	before: TriggerPoller,
	parameters: IDataObject,
	options: { timezone?: string; companyId?: string } = {},
) {
	return await trigger(parameters, { ...options, staticData: snapshot(before.staticData) });
}

const firedMonths = (result: Awaited<ReturnType<TriggerPoller['poll']>>) =>
	(result?.[0] ?? []).map((item) => item.json.month);

/**
 * 30 November, 12:00 UTC: a poll with Current Month in Pacific/Auckland (already 1 December there:
 * it watches December), then the time zone edited to Europe/Paris (still November) with `months`,
 * and its first poll: the trigger in Paris.
 */
async function aucklandThenParis(months: string): Promise<TriggerPoller> {
	setClock('2026-11-30T12:00:00.000Z');
	const auckland = await trigger({ months: 'current' }, { timezone: 'Pacific/Auckland' });
	expect(await auckland.poll()).toBeNull();
	const paris = await edited(auckland, { months }, { timezone: 'Europe/Paris' });
	expect(await paris.poll()).toBeNull();
	return paris;
}

describe('edits keep what is known', () => {
	it('a time zone change keeps a waiting month: November still fires after Paris → Auckland', async () => {
		// 30 November, 12:00 UTC: still November in Paris, already 1 December in Auckland.
		setClock('2026-11-30T12:00:00.000Z');
		const paris = await trigger({ months: 'current' }, { timezone: 'Europe/Paris' });
		expect(await paris.poll()).toBeNull();

		const auckland = await edited(paris, { months: 'current' }, { timezone: 'Pacific/Auckland' });
		expect(await auckland.poll()).toBeNull();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-30T20:00:00.000Z');

		expect(firedMonths(await auckland.poll())).toEqual(['202611']);
		expect(await auckland.poll()).toBeNull();
	});

	it('a Months change keeps a waiting month', async () => {
		setClock('2026-11-15T12:00:00.000Z');
		const current = await trigger({ months: 'current' });
		await current.poll();

		const specific = await edited(current, { months: 'specific', specificMonths: '202609' });
		expect(await specific.poll()).toBeNull();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');

		expect(firedMonths(await specific.poll())).toEqual(['202611']);
	});

	it('widening the window after the month rolled does not fire a month twice', async () => {
		setClock('2026-11-15T12:00:00.000Z');
		const options = { fireForAlreadyCompleted: true };
		const current = await trigger({ months: 'current', options });
		await current.poll();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');
		expect(firedMonths(await current.poll())).toEqual(['202611']);

		setClock('2026-12-10T12:00:00.000Z');
		const widened = await edited(current, { months: 'both', options });
		expect(await widened.poll()).toBeNull();
	});

	it('removing and re-adding a specific month does not fire it again', async () => {
		const options = { fireForAlreadyCompleted: true };
		const first = await trigger({ months: 'specific', specificMonths: '202610', options });
		expect(firedMonths(await first.poll())).toEqual(['202610']);
		const removed = await edited(first, { months: 'specific', specificMonths: '202609', options });
		expect(firedMonths(await removed.poll())).toEqual(['202609']);
		const readded = await edited(removed, {
			months: 'specific',
			specificMonths: '202609, 202610',
			options,
		});
		expect(await readded.poll()).toBeNull();
	});

	it('switching to another company and back does not repeat', async () => {
		const options = { fireForAlreadyCompleted: true };
		const fr1001 = await trigger({ months: 'specific', specificMonths: '202610', options });
		expect(firedMonths(await fr1001.poll())).toEqual(['202610']);
		const fr1002 = await edited(
			fr1001,
			{ months: 'specific', specificMonths: '202610', options },
			{ companyId: 'FR1002' },
		);
		await fr1002.poll();
		const back = await edited(fr1002, { months: 'specific', specificMonths: '202610', options });
		expect(await back.poll()).toBeNull();
	});
	it('switching the event to New Document and back does not repeat', async () => {
		const companyId = 'GB3001'; // New Document serves UK companies
		const options = { fireForAlreadyCompleted: true };
		const payrollParameters = { months: 'specific', specificMonths: '202610', options };
		const payroll = await trigger(payrollParameters, { companyId });
		expect(firedMonths(await payroll.poll())).toEqual(['202610']);
		const documents = await edited(payroll, { event: 'newDocument' }, { companyId });
		expect(await documents.poll()).toBeNull();
		const back = await edited(documents, payrollParameters, { companyId });
		expect(await back.poll()).toBeNull();
	});
});

describe('outages', () => {
	it('an outage from 31 October to 1 December: November fires once on the first poll after it', async () => {
		setClock('2026-10-31T12:00:00.000Z');
		const watcher = await trigger({ months: 'current' });
		await watcher.poll();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-28T16:00:00.000Z');

		setClock('2026-12-01T09:00:00.000Z');
		expect(firedMonths(await watcher.poll())).toEqual(['202611']);
		expect(await watcher.poll()).toBeNull();
	});
});

describe('a clock that was ahead', () => {
	afterEach(() => jest.restoreAllMocks());

	it('a poll under a clock three months ahead does not hold back the catch-up: December, completed during an outage, fires', async () => {
		const warnings = captureWarnings();
		setClock('2026-11-10T12:00:00.000Z');
		const watcher = await trigger({ months: 'current' });
		expect(await watcher.poll()).toBeNull();
		// One poll while the clock says February 2027 (a VM resumed with a wrong clock), then the
		// clock is right again: still November.
		setClock('2027-02-10T12:00:00.000Z');
		expect(await watcher.poll()).toBeNull();
		setClock('2026-11-30T12:00:00.000Z');
		expect(await watcher.poll()).toBeNull();

		// An outage from 30 November to 2 January; December completes meanwhile.
		await setPayrollStatus(session, 'FR1001', '202612', 'completed', '2026-12-30T16:00:00.000Z');
		setClock('2027-01-02T09:00:00.000Z');
		expect(firedMonths(await watcher.poll())).toEqual(['202612']);
		expect(await watcher.poll()).toBeNull();
		// Said once, by the first poll with the right clock.
		expect(warnings).toEqual([
			expect.stringMatching(/202702.*ahead of this server's clock.*ignored/),
		]);
	});

	it('one month ahead, as a time zone edit leaves it, gives no warning: the waiting month still fires', async () => {
		const warnings = captureWarnings();
		const paris = await aucklandThenParis('current');

		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-30T20:00:00.000Z');
		expect(firedMonths(await paris.poll())).toEqual(['202611']);
		expect(await paris.poll()).toBeNull();
		expect(warnings).toEqual([]);
	});

	it('Current Month in Auckland, then Previous Month in Paris at the month end: November, completed during an outage over December, fires', async () => {
		// Paris, still in November, watches October.
		const paris = await aucklandThenParis('previous');

		// November completes; n8n is down over the whole of December.
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-12-02T16:00:00.000Z');
		setClock('2027-01-02T09:00:00.000Z');
		expect(firedMonths(await paris.poll())).toEqual(['202611']);
		expect(await paris.poll()).toBeNull();
	});

	it('the month a time zone edit moved back out of the window still fires after an outage over it', async () => {
		const paris = await aucklandThenParis('current');

		// An outage over the whole of December; December completes meanwhile.
		await setPayrollStatus(session, 'FR1001', '202612', 'completed', '2026-12-30T16:00:00.000Z');
		setClock('2027-01-02T09:00:00.000Z');
		expect(firedMonths(await paris.poll())).toEqual(['202612']);
		expect(await paris.poll()).toBeNull();
	});
});

describe("n8n's durable scheduler: the workflow is loaded from the database for every poll", () => {
	it('a company whose polls fired nothing yet (the credential switched without a publish) fires its next completion', async () => {
		setClock('2026-11-15T12:00:00.000Z');
		// The activation polls once and n8n saves what it stored.
		const activation = await trigger({ months: 'current' });
		expect(await activation.poll()).toBeNull();
		let saved = snapshot(activation.staticData);
		// Each scheduled poll starts from the saved row; n8n saves only after a poll that fired.
		const scheduledPoll = async () => {
			const poller = await trigger(
				{ months: 'current' },
				{ staticData: snapshot(saved), companyId: 'FR1002' },
			);
			const result = await poller.poll();
			if (result && poller.takeSave()) saved = snapshot(poller.staticData);
			return firedMonths(result);
		};
		expect(await scheduledPoll()).toEqual([]);
		expect(await scheduledPoll()).toEqual([]);
		await setPayrollStatus(session, 'FR1002', '202611', 'completed', '2026-11-27T16:00:00.000Z');

		expect(await scheduledPoll()).toEqual(['202611']);
		expect(await scheduledPoll()).toEqual([]);
	});
});

describe('a republish while a poll still runs', () => {
	it('the older activation drops its result; the month fires once, from the newer one', async () => {
		setClock('2026-11-15T12:00:00.000Z');
		// One token for both activations: a new token would revoke the first one.
		const credentials = session.accessToken(await session.token('FR1001'));
		const parameters = { event: 'payrollCompleted', companyId: 'FR1001', months: 'current' };
		const old = createTrigger(parameters, credentials);
		await old.poll();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');
		const storedBefore = snapshot(old.staticData);

		// The older activation's poll waits on a slow answer while the workflow is published again.
		await session.injectFault({ path: '/payroll-status', type: 'delay', delayMs: 800 });
		const slowPoll = old.poll();
		await pause(100);
		const republished = createTrigger(parameters, credentials, { staticData: storedBefore });
		expect(firedMonths(await republished.poll())).toEqual(['202611']);

		expect(await slowPoll).toBeNull();
	});

	it('a poll of the older activation that starts after the newer one polled drops its result too', async () => {
		setClock('2026-11-15T12:00:00.000Z');
		const credentials = session.accessToken(await session.token('FR1001'));
		const parameters = { event: 'payrollCompleted', companyId: 'FR1001', months: 'current' };
		const old = createTrigger(parameters, credentials);
		await old.poll();
		const republished = createTrigger(parameters, credentials, {
			staticData: snapshot(old.staticData),
		});
		expect(await republished.poll()).toBeNull();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');

		// n8n 2.8 stops the older activation's schedule after the newer one started: a late poll.
		expect(await old.poll()).toBeNull();
		expect(firedMonths(await republished.poll())).toEqual(['202611']);
	});

	it('a poll that never ends is given up after twice the budget; its late result is dropped', async () => {
		setClock('2026-11-15T12:00:00.000Z');
		const watcher = await trigger({ months: 'current' });
		await watcher.poll();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');
		await session.injectFault({ path: '/payroll-status', type: 'delay', delayMs: 1500 });
		const stuck = watcher.poll();
		await pause(100);
		// Within twice the budget the next scheduled poll is skipped; after it, the stuck one is given up.
		expect(await watcher.poll()).toBeNull();
		advanceWallClock(2 * POLL_BUDGET_MS + 1000);
		expect(firedMonths(await watcher.poll())).toEqual(['202611']);
		expect(await stuck).toBeNull();
		expect(await watcher.poll()).toBeNull();
	});
});

describe('the poll budget and outages', () => {
	it('a poll that runs past its budget keeps what answered; the next poll asks the rest and fires once', async () => {
		setClock('2026-11-15T12:00:00.000Z');
		const watcher = await trigger({ months: 'both' });
		await watcher.poll();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');

		// The first status answer is slow; meanwhile the poll's budget runs out.
		await session.injectFault({ path: '/payroll-status', type: 'delay', delayMs: 400 });
		await session.clearRequests();
		const slowPoll = watcher.poll();
		await pause(150);
		advanceWallClock(POLL_BUDGET_MS + 1000);

		expect(await slowPoll).toBeNull();
		// No request is started past the budget.
		expect(await requestLines(session)).toEqual([
			'GET /companies/FR1001/payroll-status?date=202610',
		]);

		expect(firedMonths(await watcher.poll())).toEqual(['202611']);
		expect(await watcher.poll()).toBeNull();
	});

	it('a slow service that answers only part of each poll still gets every month through', async () => {
		setClock('2026-11-15T12:00:00.000Z');
		const watcher = await trigger({ months: 'specific', specificMonths: '202609, 202610, 202611' });
		await watcher.poll();
		await setPayrollStatus(session, 'FR1001', '202609', 'not_completed');
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');
		const fired: unknown[] = [];
		// Every poll: the first answer arrives after the budget; one month per poll at most.
		for (let poll = 0; poll < 3; poll++) {
			await session.injectFault({ path: '/payroll-status', type: 'delay', delayMs: 300 });
			const slowPoll = watcher.poll();
			await pause(120);
			advanceWallClock(POLL_BUDGET_MS + 1000);
			fired.push(...firedMonths(await slowPoll));
		}
		expect(fired).toEqual(['202611']);
		await setPayrollStatus(session, 'FR1001', '202609', 'completed', '2026-09-29T16:00:00.000Z');
		expect(firedMonths(await watcher.poll())).toEqual(['202609']);
	});

	it('a carried month the service refuses (4xx) is dropped with a log line and blocks no other month', async () => {
		setClock('2026-11-15T12:00:00.000Z');
		const november = await trigger({ months: 'current' });
		await november.poll();
		// December: November is carried (not completed); its status answers 404 from now on.
		setClock('2026-12-15T12:00:00.000Z');
		await session.injectFault({
			path: '/payroll-status',
			query: { date: '202611' },
			type: 'status',
			status: 404,
			count: 10,
		});
		await setPayrollStatus(session, 'FR1001', '202612', 'completed', '2026-12-28T16:00:00.000Z');

		expect(firedMonths(await november.poll())).toEqual(['202612']);
		await session.clearRequests();
		expect(await november.poll()).toBeNull();
		expect(await requestLines(session)).toEqual([
			'GET /companies/FR1001/payroll-status?date=202612',
		]);
	});

	it('an outage makes one error execution, then at most one an hour, until a poll succeeds', async () => {
		setClock('2026-11-15T12:00:00.000Z');
		const watcher = await trigger({ months: 'current' });
		await watcher.poll();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');
		const outage = { path: '/payroll-status', type: 'status', status: 503, retryAfter: 0 };
		await session.injectFault({ ...outage, count: 8 });

		await expect(watcher.poll()).rejects.toThrow('The Partner Payroll service failed (HTTP 503)');
		expect(await watcher.poll()).toBeNull(); // the same outage: logged, no error execution
		advanceWallClock(60 * 60 * 1000);
		await session.injectFault({ ...outage, count: 4 });
		await expect(watcher.poll()).rejects.toThrow('The Partner Payroll service failed (HTTP 503)');

		// The service is back: the completion fires once, and the next failure is reported at once.
		expect(firedMonths(await watcher.poll())).toEqual(['202611']);
		await session.injectFault({ ...outage, count: 4 });
		await expect(watcher.poll()).rejects.toThrow('The Partner Payroll service failed (HTTP 503)');
	}, 60_000);
});

describe('where the state lives', () => {
	it('renaming the node keeps its state: nothing fires again, nothing is dropped', async () => {
		setClock('2026-11-15T12:00:00.000Z');
		const before = await trigger({ months: 'both', options: { fireForAlreadyCompleted: true } });
		expect(firedMonths(await before.poll())).toEqual(['202610']);

		const token = await session.token('FR1001');
		const renamed = createTrigger(
			{
				event: 'payrollCompleted',
				companyId: 'FR1001',
				months: 'both',
				options: { fireForAlreadyCompleted: true },
			},
			session.accessToken(token),
			{ staticData: snapshot(before.staticData), nodeName: 'When payroll closes' },
		);
		expect(await renamed.poll()).toBeNull();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');
		expect(firedMonths(await renamed.poll())).toEqual(['202611']);
	});

	it('adopts, once, the state an earlier version kept under the node name', async () => {
		setClock('2026-11-15T12:00:00.000Z');
		const earlier = await trigger({ months: 'both', options: { fireForAlreadyCompleted: true } });
		expect(firedMonths(await earlier.poll())).toEqual(['202610']);
		const global = snapshot(earlier.staticData).global as IDataObject;
		const byName = { 'node:Partner Payroll Trigger': global['partnerPayrollTrigger:test-node'] };

		// An upgrade is a new n8n process.
		forgetStoredStates();
		const upgraded = await trigger(
			{ months: 'both', options: { fireForAlreadyCompleted: true } },
			{ staticData: byName },
		);
		expect(await upgraded.poll()).toBeNull();
		expect(upgraded.staticData['node:Partner Payroll Trigger']).toEqual({});
		expect(Object.keys(upgraded.state())).toEqual(['payrollCompleted', 'revision']);
	});
});
