import type { IDataObject } from 'n8n-workflow';

import type { PayrollState } from '../../../../nodes/PartnerPayrollTrigger/helpers/payrollState';
import { SandboxSession } from '../../../support/fixtures';
import {
	createTrigger,
	requestLines,
	restoreClock,
	setClock,
	setPayrollStatus,
	snapshot,
} from '../triggerHarness';

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => {
	await session.reset();
	// Mid-November 2026 in every zone: current 202611 (seeded not_completed), previous 202610 (completed).
	setClock('2026-11-15T12:00:00.000Z');
});
afterEach(() => restoreClock());

const FR1001 = { event: 'payrollCompleted', companyId: 'FR1001' };

function companyState(trigger: { state(): IDataObject }, companyId = 'FR1001') {
	return (trigger.state().payrollCompleted as unknown as PayrollState).companies[companyId];
}

async function frTrigger(
	parameters = {},
	options: { timezone?: string; staticData?: IDataObject } = {},
) {
	const token = await session.token('FR1001');
	return createTrigger({ ...FR1001, ...parameters }, session.accessToken(token), options);
}

describe('payrollCompleted: first activation', () => {
	it('records the watched months and fires nothing', async () => {
		const trigger = await frTrigger();
		await session.clearRequests();

		expect(await trigger.poll()).toBeNull();

		expect(trigger.state()).toEqual({
			payrollCompleted: {
				companies: {
					FR1001: {
						months: {
							'202610': { status: 'completed', executionEndDate: '2026-10-28T17:42:05.000Z' },
							'202611': { status: 'not_completed', executionEndDate: null },
						},
						fired: {},
						selection: 'both',
						lastPolledMonth: '202611',
					},
				},
				recent: ['FR1001'],
			},
			revision: 1,
		});
		// One payroll-status request per watched month, nothing else (Company ID is set).
		expect(await requestLines(session)).toEqual([
			'GET /companies/FR1001/payroll-status?date=202610',
			'GET /companies/FR1001/payroll-status?date=202611',
		]);
	});

	it('fires for already completed months with the option', async () => {
		const trigger = await frTrigger({ options: { fireForAlreadyCompleted: true } });

		expect(await trigger.poll()).toEqual([
			[
				{
					json: {
						companyId: 'FR1001',
						month: '202610',
						monthName: 'October 2026',
						status: 'completed',
						executionEndDate: '2026-10-28T17:42:05.000Z',
						timeZone: 'Europe/Paris',
						isRerun: false,
						dedupeKey: 'payroll:FR1001:202610',
						source: 'poll',
					},
				},
			],
		]);
		expect(await trigger.poll()).toBeNull();
	});

	it("keeps another company's state; the first poll for this company is its baseline", async () => {
		const token = await session.token('FR1002');
		const other = createTrigger(
			{ event: 'payrollCompleted', companyId: 'FR1002' },
			session.accessToken(token),
		);
		await other.poll();
		const trigger = await frTrigger({}, { staticData: snapshot(other.staticData) });

		expect(await trigger.poll()).toBeNull();
		expect(Object.keys((trigger.state().payrollCompleted as PayrollState).companies)).toEqual([
			'FR1002',
			'FR1001',
		]);
	});
});

describe('payrollCompleted: what n8n saves', () => {
	it('every poll that changes the state marks the static data as changed, so n8n saves it', async () => {
		const trigger = await frTrigger();
		expect(await trigger.poll()).toBeNull();
		expect(trigger.takeSave()).toBe(true);
		expect(await trigger.poll()).toBeNull();
		expect(trigger.takeSave()).toBe(false);

		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');
		expect(await trigger.poll()).not.toBeNull();
		expect(trigger.takeSave()).toBe(true);
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-29T08:00:00.000Z');
		expect(await trigger.poll()).not.toBeNull();
		expect(trigger.takeSave()).toBe(true);
	});
});

describe('payrollCompleted: where the token goes', () => {
	it('a status answer redirected to another origin is read there without the token', async () => {
		const trigger = await frTrigger({ options: { fireForAlreadyCompleted: true } });
		await session.injectFault({
			path: '/api/v1/companies/FR1001/payroll-status',
			type: 'redirect',
			status: 302,
			to: 'other',
		});
		const fired = await trigger.poll();
		expect(fired?.[0].map((item) => item.json.month)).toEqual(['202610']);
		expect((await session.storageRequests()).map((request) => request.authorization)).toEqual([
			null,
		]);
	});
});

describe('payrollCompleted: transitions', () => {
	it('fires once when a month switches to completed, then nothing', async () => {
		const trigger = await frTrigger();
		expect(await trigger.poll()).toBeNull();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');

		expect(await trigger.poll()).toEqual([
			[
				{
					json: {
						companyId: 'FR1001',
						month: '202611',
						monthName: 'November 2026',
						status: 'completed',
						executionEndDate: '2026-11-27T16:00:00.000Z',
						timeZone: 'Europe/Paris',
						isRerun: false,
						dedupeKey: 'payroll:FR1001:202611',
						source: 'poll',
					},
				},
			],
		]);
		expect(await trigger.poll()).toBeNull();
		expect(await trigger.poll()).toBeNull();
	});

	it('puts every month that switched in the same poll into one execution', async () => {
		const trigger = await frTrigger({ months: 'specific', specificMonths: '202611, 202612' });
		await trigger.poll();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');
		await setPayrollStatus(session, 'FR1001', '202612', 'completed', '2026-12-28T16:00:00.000Z');

		const output = await trigger.poll();
		expect(output).toHaveLength(1);
		expect(output![0].map((item) => item.json.month)).toEqual(['202611', '202612']);
	});

	it('does not fire when a month stays not completed or stays completed', async () => {
		const trigger = await frTrigger();
		await trigger.poll();
		const before = snapshot(trigger.state());

		expect(await trigger.poll()).toBeNull();
		expect(snapshot(trigger.state())).toEqual(before);
	});

	it('resolves the company of the token once per poll when Company ID is empty', async () => {
		const token = await session.token('ES2001');
		const trigger = createTrigger({ event: 'payrollCompleted' }, session.accessToken(token));
		await session.clearRequests();

		await trigger.poll();
		await setPayrollStatus(session, 'ES2001', '202611', 'completed', '2026-11-27T15:00:00.000Z');
		const [[item]] = (await trigger.poll())!;

		expect(item.json).toMatchObject({ companyId: 'ES2001', month: '202611' });
		expect(await requestLines(session)).toEqual([
			'POST /oauth/introspect',
			'GET /companies/ES2001/payroll-status?date=202610',
			'GET /companies/ES2001/payroll-status?date=202611',
			'POST /oauth/introspect',
			'GET /companies/ES2001/payroll-status?date=202610',
			'GET /companies/ES2001/payroll-status?date=202611',
		]);
	});

	it('works with the OAuth2 credential', async () => {
		const token = await session.token('FR1002');
		const trigger = createTrigger({ event: 'payrollCompleted' }, session.oauth2(token));
		await trigger.poll();
		await setPayrollStatus(session, 'FR1002', '202611', 'completed', '2026-11-27T16:00:00.000Z');

		const [[item]] = (await trigger.poll())!;
		expect(item.json).toMatchObject({ companyId: 'FR1002', month: '202611', status: 'completed' });
	});
});

describe('payrollCompleted: re-runs', () => {
	/** October (completed) fired at activation, then its payroll is run again. */
	async function completedThenRerun(options: object) {
		const trigger = await frTrigger({ options: { ...options, fireForAlreadyCompleted: true } });
		expect((await trigger.poll())?.[0].map((item) => item.json.month)).toEqual(['202610']);
		await setPayrollStatus(session, 'FR1001', '202610', 'completed', '2026-11-02T09:00:00.000Z');
		return trigger;
	}

	it('fires a new executionEndDate once, marked as a re-run, keyed by its end', async () => {
		const trigger = await completedThenRerun({});

		expect(await trigger.poll()).toEqual([
			[
				{
					json: {
						companyId: 'FR1001',
						month: '202610',
						monthName: 'October 2026',
						status: 'completed',
						executionEndDate: '2026-11-02T09:00:00.000Z',
						timeZone: 'Europe/Paris',
						isRerun: true,
						dedupeKey: 'payroll:FR1001:202610:2026-11-02T09:00:00.000Z',
						source: 'poll',
					},
				},
			],
		]);
		expect(await trigger.poll()).toBeNull();
	});

	it('a month whose newest run is deleted (its end date goes back to the run before) fires nothing: that run already started the workflow', async () => {
		const trigger = await completedThenRerun({});
		expect((await trigger.poll())?.[0].map((item) => item.json.isRerun)).toEqual([true]);

		await setPayrollStatus(session, 'FR1001', '202610', 'completed', '2026-10-28T17:42:05.000Z');
		expect(await trigger.poll()).toBeNull();
		// A new run after it still fires.
		await setPayrollStatus(session, 'FR1001', '202610', 'completed', '2026-11-05T11:00:00.000Z');
		expect((await trigger.poll())?.[0].map((item) => item.json.executionEndDate)).toEqual([
			'2026-11-05T11:00:00.000Z',
		]);
	});

	it('ignores a new executionEndDate with First Completion Only, without firing later either', async () => {
		const trigger = await completedThenRerun({ firstCompletionOnly: true });

		expect(await trigger.poll()).toBeNull();
		expect(trigger.state().payrollCompleted).toMatchObject({
			companies: {
				FR1001: { months: { '202610': { executionEndDate: '2026-11-02T09:00:00.000Z' } } },
			},
		});
		expect(await trigger.poll()).toBeNull();
	});

	it('the same end date written another way (.000Z or Z) is the same run: nothing fires', async () => {
		const trigger = await completedThenRerun({});
		await setPayrollStatus(session, 'FR1001', '202610', 'completed', '2026-10-28T17:42:05Z');
		expect(await trigger.poll()).toBeNull();
	});

	it('a month that fired, reopened then completed again, fires exactly once more, isRerun true', async () => {
		const trigger = await frTrigger();
		await trigger.poll();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');
		const [[first]] = (await trigger.poll())!;
		expect(first.json).toMatchObject({ month: '202611', isRerun: false });

		await setPayrollStatus(session, 'FR1001', '202611', 'not_completed');
		expect(await trigger.poll()).toBeNull();
		expect(await trigger.poll()).toBeNull();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-29T08:00:00.000Z');

		const [[again]] = (await trigger.poll())!;
		expect(again.json).toMatchObject({
			month: '202611',
			status: 'completed',
			executionEndDate: '2026-11-29T08:00:00.000Z',
			isRerun: true,
		});
		expect(await trigger.poll()).toBeNull();
	});

	it('a reopening and a new completion between two polls fire once more too, whatever the poll times', async () => {
		const trigger = await frTrigger();
		await trigger.poll();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');
		await trigger.poll();
		// No poll sees the month open.
		await setPayrollStatus(session, 'FR1001', '202611', 'not_completed');
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-29T08:00:00.000Z');

		expect((await trigger.poll())?.[0].map((item) => item.json.isRerun)).toEqual([true]);
		expect(await trigger.poll()).toBeNull();
	});

	it('First Completion Only: a reopened and completed month does not fire again', async () => {
		const trigger = await frTrigger({ options: { firstCompletionOnly: true } });
		await trigger.poll();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');
		expect((await trigger.poll())?.[0].map((item) => item.json.isRerun)).toEqual([false]);
		await setPayrollStatus(session, 'FR1001', '202611', 'not_completed');
		expect(await trigger.poll()).toBeNull();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-29T08:00:00.000Z');

		expect(await trigger.poll()).toBeNull();
	});

	it('a month recorded at activation (never fired), reopened then completed, fires with isRerun false', async () => {
		const trigger = await frTrigger();
		await trigger.poll();
		await setPayrollStatus(session, 'FR1001', '202610', 'not_completed');
		expect(await trigger.poll()).toBeNull();
		await setPayrollStatus(session, 'FR1001', '202610', 'completed', '2026-11-03T10:00:00.000Z');

		const [[item]] = (await trigger.poll())!;
		expect(item.json).toMatchObject({
			month: '202610',
			isRerun: false,
			dedupeKey: 'payroll:FR1001:202610',
		});
		expect(await trigger.poll()).toBeNull();
	});
});

describe('payrollCompleted: specific months', () => {
	it('watches exactly the typed months and fires for them', async () => {
		const trigger = await frTrigger({ months: 'specific', specificMonths: '2026-12,202611' });
		await session.clearRequests();

		expect(await trigger.poll()).toBeNull();
		expect(await requestLines(session)).toEqual([
			'GET /companies/FR1001/payroll-status?date=202611',
			'GET /companies/FR1001/payroll-status?date=202612',
		]);

		await setPayrollStatus(session, 'FR1001', '202612', 'completed', '2026-12-28T17:00:00.000Z');
		const [[item]] = (await trigger.poll())!;
		expect(item.json).toMatchObject({ month: '202612', monthName: 'December 2026' });
		expect(await trigger.poll()).toBeNull();
	});

	it('refuses an invalid month before any request', async () => {
		const trigger = await frTrigger({ months: 'specific', specificMonths: '202611, 202613' });
		await session.clearRequests();

		await expect(trigger.poll()).rejects.toThrow(
			'Specific Months must be a month as YYYYMM, for example 202610 (got "202613")',
		);
		expect(await session.requests()).toEqual([]);
		expect(trigger.state()).toEqual({});
	});

	it('refuses an empty list', async () => {
		const trigger = await frTrigger({ months: 'specific', specificMonths: ' , ' });
		await expect(trigger.poll()).rejects.toThrow('Specific Months needs at least one month');
	});

	it('treats a month added to the list later as a baseline, and keeps watching the others', async () => {
		const trigger = await frTrigger({ months: 'specific', specificMonths: '202611' });
		await trigger.poll();

		// The user adds an already completed month: no event for it.
		const edited = await frTrigger(
			{ months: 'specific', specificMonths: '202609, 202611' },
			{ staticData: snapshot(trigger.staticData) },
		);
		expect(await edited.poll()).toBeNull();

		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');
		const [[item]] = (await edited.poll())!;
		expect(item.json.month).toBe('202611');
	});
});

describe('payrollCompleted: month rollover', () => {
	it('Pacific/Auckland: November ends 11 h before UTC does, and November stays watched until it completes', async () => {
		// 2026-11-30T10:00Z is 23:00 on 30 November in Auckland (NZDT, UTC+13).
		setClock('2026-11-30T10:00:00.000Z');
		const trigger = await frTrigger({ months: 'current' }, { timezone: 'Pacific/Auckland' });
		await session.clearRequests();
		expect(await trigger.poll()).toBeNull();
		expect(await requestLines(session)).toEqual([
			'GET /companies/FR1001/payroll-status?date=202611',
		]);

		// 01:00 on 1 December in Auckland; still 30 November in UTC.
		setClock('2026-11-30T12:00:00.000Z');
		await session.clearRequests();
		expect(await trigger.poll()).toBeNull();
		// The selected month first, then the one carried over.
		expect(await requestLines(session)).toEqual([
			'GET /companies/FR1001/payroll-status?date=202612',
			'GET /companies/FR1001/payroll-status?date=202611',
		]);

		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-30T20:00:00.000Z');
		expect(await trigger.poll()).toEqual([
			[
				{
					json: {
						companyId: 'FR1001',
						month: '202611',
						monthName: 'November 2026',
						status: 'completed',
						executionEndDate: '2026-11-30T20:00:00.000Z',
						timeZone: 'Pacific/Auckland',
						isRerun: false,
						dedupeKey: 'payroll:FR1001:202611',
						source: 'poll',
					},
				},
			],
		]);

		// Completed: November is no longer watched, only December.
		await session.clearRequests();
		expect(await trigger.poll()).toBeNull();
		expect(await requestLines(session)).toEqual([
			'GET /companies/FR1001/payroll-status?date=202612',
		]);
		expect(Object.keys(companyState(trigger).months)).toEqual(['202612']);
	});

	it('America/Los_Angeles: still November when UTC is already in December', async () => {
		// 2026-12-01T07:00Z is 23:00 on 30 November in Los Angeles (PST, UTC-8).
		setClock('2026-12-01T07:00:00.000Z');
		const trigger = await frTrigger({}, { timezone: 'America/Los_Angeles' });
		await session.clearRequests();
		expect(await trigger.poll()).toBeNull();
		expect(await requestLines(session)).toEqual([
			'GET /companies/FR1001/payroll-status?date=202610',
			'GET /companies/FR1001/payroll-status?date=202611',
		]);

		// 01:00 on 1 December in Los Angeles: previous is November, current December; October is
		// completed and leaves the window.
		setClock('2026-12-01T09:00:00.000Z');
		await session.clearRequests();
		expect(await trigger.poll()).toBeNull();
		expect(await requestLines(session)).toEqual([
			'GET /companies/FR1001/payroll-status?date=202611',
			'GET /companies/FR1001/payroll-status?date=202612',
		]);

		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-12-02T10:00:00.000Z');
		const [[item]] = (await trigger.poll())!;
		expect(item.json).toMatchObject({ month: '202611', timeZone: 'America/Los_Angeles' });
		expect(await trigger.poll()).toBeNull();
	});

	it('Previous Month: a month that completed before it became "previous" fires once when it does', async () => {
		setClock('2026-11-30T12:00:00.000Z');
		const trigger = await frTrigger({ months: 'previous' }, { timezone: 'Europe/Paris' });
		expect(await trigger.poll()).toBeNull(); // baseline: October, completed

		// November completes while it is still the current month: not watched yet.
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-30T12:30:00.000Z');
		expect(await trigger.poll()).toBeNull();

		// 1 December in Paris: November becomes "previous", already completed: that is the news.
		setClock('2026-12-01T00:30:00.000Z');
		const [[item]] = (await trigger.poll())!;
		expect(item.json).toMatchObject({ month: '202611', status: 'completed' });
		expect(await trigger.poll()).toBeNull();
	});

	it('a completion that happened while n8n was down fires on the first poll after it', async () => {
		setClock('2026-11-25T12:00:00.000Z');
		const trigger = await frTrigger({ months: 'current' });
		await trigger.poll();
		const saved = snapshot(trigger.staticData);

		// n8n is down across the month end; November completes meanwhile.
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-28T17:00:00.000Z');
		setClock('2026-12-03T08:00:00.000Z');
		const token = await session.token('FR1001');
		const restarted = createTrigger({ ...FR1001, months: 'current' }, session.accessToken(token), {
			timezone: 'Europe/Paris',
			staticData: saved,
		});

		const [[item]] = (await restarted.poll())!;
		expect(item.json).toMatchObject({ month: '202611' });
		expect(await restarted.poll()).toBeNull();
	});
});

describe('payrollCompleted: failures lose nothing and repeat nothing', () => {
	jest.setTimeout(30_000);

	async function pollThatFailsOnTheTransition(fault: object) {
		const trigger = await frTrigger();
		await trigger.poll();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');
		const before = snapshot(trigger.staticData);
		await session.injectFault({ path: '/payroll-status', ...fault });
		return { trigger, before };
	}

	it.each([
		[
			'429 after every retry',
			{ type: 'status', status: 429, retryAfter: 0, count: 4 },
			/rate limit/,
		],
		['500 after every retry', { type: 'status', status: 500, retryAfter: 0, count: 4 }, /HTTP 500/],
		['503 after every retry', { type: 'status', status: 503, retryAfter: 0, count: 4 }, /HTTP 503/],
		['a cut connection after every retry', { type: 'truncate', count: 4 }, /complete answer/],
	])(
		'%s: the poll throws, the state is unchanged, the next poll fires once',
		async (_name, fault, message) => {
			const { trigger, before } = await pollThatFailsOnTheTransition(fault);

			await expect(trigger.poll()).rejects.toThrow(message);
			expect(snapshot(trigger.staticData)).toEqual(before);

			const output = await trigger.poll();
			expect(output?.[0].map((item) => item.json.month)).toEqual(['202611']);
			expect(await trigger.poll()).toBeNull();
		},
	);

	it('a failure on the last request of the poll stores nothing of the earlier ones', async () => {
		const trigger = await frTrigger({ months: 'specific', specificMonths: '202611,202612' });
		await trigger.poll();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');
		await setPayrollStatus(session, 'FR1001', '202612', 'completed', '2026-12-28T16:00:00.000Z');
		const before = snapshot(trigger.staticData);
		// 202611 gets through on its last retry (3 faults), 202612 exhausts its retries (4 faults).
		await session.injectFault({
			path: '/payroll-status',
			type: 'status',
			status: 500,
			retryAfter: 0,
			count: 7,
		});

		await expect(trigger.poll()).rejects.toThrow(/HTTP 500/);
		expect(snapshot(trigger.staticData)).toEqual(before);

		const output = await trigger.poll();
		expect(output?.[0].map((item) => item.json.month)).toEqual(['202611', '202612']);
		expect(await trigger.poll()).toBeNull();
	});

	it('faults the transport retries away within the poll: one execution', async () => {
		const { trigger } = await pollThatFailsOnTheTransition({
			type: 'status',
			status: 429,
			retryAfter: 0,
			count: 2,
		});
		const output = await trigger.poll();
		expect(output?.[0].map((item) => item.json.month)).toEqual(['202611']);
		expect(await trigger.poll()).toBeNull();
	});

	it('a slow answer: an overlapping poll fires nothing, the slow one fires once', async () => {
		const { trigger } = await pollThatFailsOnTheTransition({
			type: 'delay',
			delayMs: 400,
			count: 1,
		});

		const slow = trigger.poll();
		const overlapping = await trigger.poll();
		expect(overlapping).toBeNull();
		expect((await slow)?.[0].map((item) => item.json.month)).toEqual(['202611']);
		expect(await trigger.poll()).toBeNull();
	});

	it('a malformed answer fails the poll instead of reading as not completed', async () => {
		const { trigger, before } = await pollThatFailsOnTheTransition({ type: 'malformed', count: 1 });
		await expect(trigger.poll()).rejects.toThrow('not valid JSON');
		expect(snapshot(trigger.staticData)).toEqual(before);
		expect((await trigger.poll())?.[0]).toHaveLength(1);
	});

	it('an invalid token fails with the clear error and stores nothing', async () => {
		const trigger = createTrigger(FR1001, session.accessToken('sbx_dummy_revoked_example'));
		await expect(trigger.poll()).rejects.toMatchObject({
			message: 'The access token is invalid or has been revoked',
		});
		expect(trigger.state()).toEqual({});
	});
});

describe('payrollCompleted: Fetch Test Event (manual mode)', () => {
	it('returns the latest completed watched month and leaves the state unchanged', async () => {
		const trigger = await frTrigger();
		await trigger.poll();
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T16:00:00.000Z');
		const before = snapshot(trigger.staticData);

		expect(await trigger.poll('manual')).toEqual([
			[
				{
					json: {
						companyId: 'FR1001',
						month: '202611',
						monthName: 'November 2026',
						status: 'completed',
						executionEndDate: '2026-11-27T16:00:00.000Z',
						timeZone: 'Europe/Paris',
						isRerun: false,
						dedupeKey: 'payroll:FR1001:202611',
						source: 'poll',
					},
				},
			],
		]);
		expect(snapshot(trigger.staticData)).toEqual(before);
		// The transition is still news for the active trigger.
		expect((await trigger.poll())?.[0]).toHaveLength(1);
	});

	it("with no watched month completed: n8n's usual No data error, and no state", async () => {
		const trigger = await frTrigger({ months: 'specific', specificMonths: '202611,202612' });

		await expect(trigger.poll('manual')).rejects.toThrow(
			'No data with the current filter could be found',
		);
		expect(snapshot(trigger.staticData)).toEqual({});
	});
});
