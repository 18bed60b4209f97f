import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { PayrollState } from '../../../../nodes/PartnerPayrollTrigger/helpers/payrollState';
import {
	REMOVED_RETENTION_MS,
	type PartnerState,
} from '../../../../nodes/PartnerPayrollTrigger/helpers/partnerState';
import { POLL_BUDGET_MS } from '../../../../nodes/PartnerPayrollTrigger/helpers/pollBudget';
import { COMPANIES_IN_FLIGHT } from '../../../../nodes/PartnerPayrollTrigger/helpers/partnerPoll';
import { SandboxSession, failureOf } from '../../../support/fixtures';
import { startStubService } from '../../../support/stub-service';
import type { TestCredentials } from '../../../support/n8n-harness';
import {
	advanceWallClock,
	captureWarnings,
	createTrigger,
	restoreClock,
	setClock,
	setPayrollStatus,
	snapshot,
	stubPartnerCredentials,
	type TriggerPoller,
} from '../triggerHarness';

// The trigger over the companies of the Partner API credential: one poll checks every company, each
// with its own token, and one company's trouble never stops the others.

// A test polls twelve companies several times: room for a machine busy with other suites.
jest.setTimeout(60_000);

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => {
	// The four seeded companies, then FR5001, ES6001, GB7001, ...: 12 in all.
	await session.control('POST', '/reset', { generatedCompanies: 8 });
	// Mid-November 2026: current 202611 (not completed), previous 202610 (completed).
	setClock('2026-11-15T12:00:00.000Z');
});
afterEach(() => restoreClock());

type Row = { companyId: string; label: string; accessToken: string };

const TWELVE = [
	'FR1001',
	'FR1002',
	'ES2001',
	'GB3001',
	'FR5001',
	'ES6001',
	'GB7001',
	'FR5002',
	'ES6002',
	'GB7002',
	'FR5003',
	'ES6003',
];

const PAYROLL = { event: 'payrollCompleted' };

const rowsOf = (credentials: TestCredentials) =>
	(credentials.partnerPayrollPartnerApi.companies as { company: Row[] }).company;
const tokenOf = (row: Row) => row.accessToken.slice(row.companyId.length + 1);

/** The same credential with other rows (the tokens stay those issued). */
function withRows(credentials: TestCredentials, rows: Row[]): TestCredentials {
	return {
		partnerPayrollPartnerApi: {
			...credentials.partnerPayrollPartnerApi,
			companies: { company: rows },
		},
	};
}

/** The trigger again, as n8n runs it after the credential was edited: the stored state carries over. */
const after = (trigger: TriggerPoller, parameters: INodeParameters, credentials: TestCredentials) =>
	createTrigger(parameters, credentials, { staticData: snapshot(trigger.staticData) });

const jsonOf = (fired: INodeExecutionData[][] | null) =>
	(fired?.[0] ?? []).map((item) => item.json);

const apiRequests = async () => await session.apiRequestCompanies();

function partnerState(trigger: TriggerPoller): PartnerState {
	return trigger.state().partner as unknown as PartnerState;
}

function payrollCompanies(trigger: TriggerPoller): string[] {
	return Object.keys((trigger.state().payrollCompleted as unknown as PayrollState).companies);
}

describe('partner mode: one poll for every company of the credential', () => {
	it('fires once per company whose month completes, with its label, each request with its own token', async () => {
		const credentials = await session.partner(TWELVE);
		const trigger = createTrigger(PAYROLL, credentials);
		await session.clearRequests();

		// The first poll is every company's baseline: October is completed everywhere, nothing fires.
		expect(await trigger.poll()).toBeNull();
		const baseline = await apiRequests();
		expect(baseline).toHaveLength(24);
		expect(new Set(baseline.map((request) => request.pathCompany))).toEqual(new Set(TWELVE));
		for (const request of baseline) expect(request.tokenCompany).toBe(request.pathCompany);

		await setPayrollStatus(session, 'ES2001', '202611', 'completed', '2026-11-27T10:00:00.000Z');
		await setPayrollStatus(session, 'GB7002', '202611', 'completed', '2026-11-27T11:00:00.000Z');
		const fired = jsonOf(await trigger.poll());
		expect(fired).toEqual([
			{
				companyId: 'ES2001',
				label: 'Client ES2001',
				month: '202611',
				monthName: 'November 2026',
				status: 'completed',
				executionEndDate: '2026-11-27T10:00:00.000Z',
				timeZone: 'Europe/Paris',
				isRerun: false,
				dedupeKey: 'payroll:ES2001:202611',
				source: 'poll',
			},
			expect.objectContaining({ companyId: 'GB7002', label: 'Client GB7002', month: '202611' }),
		]);
		expect(await trigger.poll()).toBeNull();
	});

	it('stores ids and dates only: no token of the credential is in the static data', async () => {
		const credentials = await session.partner(TWELVE);
		const trigger = createTrigger(PAYROLL, credentials);
		await trigger.poll();
		await session.control('POST', '/tokens/revoke', { token: tokenOf(rowsOf(credentials)[1]) });
		await trigger.poll();

		const stored = JSON.stringify(trigger.staticData);
		expect(payrollCompanies(trigger)).toHaveLength(12);
		expect(Object.keys(partnerState(trigger).lost)).toEqual(['FR1002']);
		for (const row of rowsOf(credentials)) expect(stored).not.toContain(tokenOf(row));
	});

	it('watches the selected companies only, and refuses an empty selection before any request', async () => {
		const credentials = await session.partner(TWELVE);
		const selected = { ...PAYROLL, companies: 'selected', companyIds: ['GB3001', 'FR5002'] };
		await session.clearRequests();
		expect(await createTrigger(selected, credentials).poll()).toBeNull();
		expect(new Set((await apiRequests()).map((request) => request.pathCompany))).toEqual(
			new Set(['GB3001', 'FR5002']),
		);

		await session.clearRequests();
		const error = await failureOf(
			createTrigger({ ...selected, companyIds: [] }, credentials).poll(),
		);
		expect(error.message).toContain('Selected Companies needs at least one company');
		expect(await apiRequests()).toEqual([]);
	});

	it('New Document: looks up each company once, then lists the UK companies only, with their labels', async () => {
		const credentials = await session.partner(['FR1001', 'GB3001', 'ES2001', 'GB7001']);
		const trigger = createTrigger(
			{ event: 'newDocument', options: { fireForExisting: true } },
			credentials,
		);
		await session.clearRequests();
		const fired = jsonOf(await trigger.poll());
		expect(new Set(fired.map((item) => `${String(item.companyId)} ${String(item.label)}`))).toEqual(
			new Set(['GB3001 Client GB3001', 'GB7001 Client GB7001']),
		);
		expect(fired.filter((item) => item.companyId === 'GB3001')).toHaveLength(6);
		const firstPoll = (await session.requests()).map((request) => request.path);
		expect(firstPoll.filter((path) => /\/companies\/[^/]+$/.test(path)).sort()).toEqual([
			'/api/v1/companies/ES2001',
			'/api/v1/companies/FR1001',
			'/api/v1/companies/GB3001',
			'/api/v1/companies/GB7001',
		]);

		await session.clearRequests();
		expect(await trigger.poll()).toBeNull();
		// The countries were stored: the second poll lists the two UK companies' documents only.
		expect((await session.requests()).map((request) => request.path).sort()).toEqual([
			'/api/v1/companies/GB3001/auto-enrolment-documents',
			'/api/v1/companies/GB3001/income-taxes-documents',
			'/api/v1/companies/GB7001/auto-enrolment-documents',
			'/api/v1/companies/GB7001/income-taxes-documents',
		]);
	});

	it('Fetch Test Event: a real sample of the first company that has one, with its label; no state', async () => {
		const credentials = await session.partner(['FR1001', 'GB3001']);
		// FR1001's token is revoked: the sample comes from the next company.
		await session.control('POST', '/tokens/revoke', { token: tokenOf(rowsOf(credentials)[0]) });
		const trigger = createTrigger(PAYROLL, credentials);
		const sample = jsonOf(await trigger.poll('manual'));
		expect(sample).toEqual([
			expect.objectContaining({ companyId: 'GB3001', label: 'Client GB3001', month: '202610' }),
		]);
		expect(trigger.state()).toEqual({});
	});
});

describe('partner mode: companies added and removed', () => {
	it('a company added to the credential starts with a baseline: none of its old months fire', async () => {
		const credentials = await session.partner(TWELVE);
		const rows = rowsOf(credentials);
		const first = createTrigger(PAYROLL, withRows(credentials, rows.slice(0, 11)));
		expect(await first.poll()).toBeNull();

		// ES6003 joins; FR1001's November completes in the same poll.
		await setPayrollStatus(session, 'FR1001', '202611', 'completed', '2026-11-27T10:00:00.000Z');
		const second = after(first, PAYROLL, credentials);
		expect(jsonOf(await second.poll()).map((item) => item.companyId)).toEqual(['FR1001']);
		expect(payrollCompanies(second)).toContain('ES6003');

		// From then on ES6003 is watched like the others.
		await setPayrollStatus(session, 'ES6003', '202611', 'completed', '2026-11-28T10:00:00.000Z');
		expect(jsonOf(await second.poll())).toEqual([
			expect.objectContaining({ companyId: 'ES6003', label: 'Client ES6003', month: '202611' }),
		]);
	});

	it('a removed company stops being polled at once, and its state goes after the retention', async () => {
		const credentials = await session.partner(TWELVE);
		const rows = rowsOf(credentials);
		const first = createTrigger(PAYROLL, credentials);
		await first.poll();

		// FR1002's row is cleared (how the README says to remove a company): no row moves.
		const cleared = rows.map((row) =>
			row.companyId === 'FR1002' ? { companyId: '', label: '', accessToken: '' } : row,
		);
		const second = after(first, PAYROLL, withRows(credentials, cleared));
		await setPayrollStatus(session, 'FR1002', '202611', 'completed', '2026-11-27T10:00:00.000Z');
		await session.clearRequests();
		expect(await second.poll()).toBeNull();
		const polled = (await apiRequests()).map((request) => request.pathCompany);
		expect(polled).toHaveLength(22);
		expect(polled).not.toContain('FR1002');
		// Kept for now: put back within the retention, it would go on where it left off.
		expect(payrollCompanies(second)).toContain('FR1002');
		expect(Object.keys(partnerState(second).removedSince)).toEqual(['FR1002']);

		advanceWallClock(REMOVED_RETENTION_MS + 60_000);
		expect(await second.poll()).toBeNull();
		expect(payrollCompanies(second)).not.toContain('FR1002');
		expect(payrollCompanies(second)).toHaveLength(11);
		expect(partnerState(second).removedSince).toEqual({});
	});
});

describe('partner mode: a company put back within the retention', () => {
	it('goes on where it left off: the month it completed while away fires, once', async () => {
		const credentials = await session.partner(TWELVE);
		const rows = rowsOf(credentials);
		const first = createTrigger(PAYROLL, credentials);
		await first.poll();
		const cleared = rows.map((row) =>
			row.companyId === 'FR1002' ? { companyId: '', label: '', accessToken: '' } : row,
		);
		const away = after(first, PAYROLL, withRows(credentials, cleared));
		expect(await away.poll()).toBeNull();
		await setPayrollStatus(session, 'FR1002', '202611', 'completed', '2026-11-27T10:00:00.000Z');
		expect(await away.poll()).toBeNull();

		const back = after(away, PAYROLL, credentials);
		expect(jsonOf(await back.poll())).toEqual([
			expect.objectContaining({ companyId: 'FR1002', month: '202611', isRerun: false }),
		]);
		expect(partnerState(back).removedSince).toEqual({});
		expect(await back.poll()).toBeNull();
	});
});

describe('partner mode: a poll whose clock was ahead', () => {
	afterEach(() => jest.restoreAllMocks());

	it('every company catches up again, with one warning for the poll that ignored their stored months', async () => {
		const warnings = captureWarnings();
		const credentials = await session.partner(['FR1001', 'FR1002', 'ES2001']);
		const trigger = createTrigger({ ...PAYROLL, months: 'current' }, credentials);
		expect(await trigger.poll()).toBeNull();
		// One poll while the clock says February 2027, then the clock is right again: still November.
		setClock('2027-02-15T12:00:00.000Z');
		expect(await trigger.poll()).toBeNull();
		setClock('2026-11-30T12:00:00.000Z');
		expect(await trigger.poll()).toBeNull();

		// An outage from 30 November to 2 January; December completes meanwhile for two companies.
		await setPayrollStatus(session, 'FR1002', '202612', 'completed', '2026-12-30T10:00:00.000Z');
		await setPayrollStatus(session, 'ES2001', '202612', 'completed', '2026-12-30T11:00:00.000Z');
		setClock('2027-01-02T09:00:00.000Z');
		expect(jsonOf(await trigger.poll())).toEqual([
			expect.objectContaining({ companyId: 'FR1002', month: '202612' }),
			expect.objectContaining({ companyId: 'ES2001', month: '202612' }),
		]);
		// One line, from the first poll with the right clock, though all three companies' months were ahead.
		expect(warnings).toEqual([expect.stringMatching(/ahead of this server's clock.*ignored/)]);
	});
});

describe('partner mode: connection health, once per change', () => {
	it('a revoked token among many: one connectionLost across polls, the others fire, then one connectionRestored', async () => {
		const credentials = await session.partner(TWELVE);
		const rows = rowsOf(credentials);
		const trigger = createTrigger(PAYROLL, credentials);
		expect(await trigger.poll()).toBeNull();

		const gb3001 = rows.find((row) => row.companyId === 'GB3001')!;
		await session.control('POST', '/tokens/revoke', { token: tokenOf(gb3001) });
		const lost = jsonOf(await trigger.poll());
		expect(lost).toEqual([
			{
				event: 'connectionLost',
				companyId: 'GB3001',
				label: 'Client GB3001',
				reason: expect.stringContaining(
					'company GB3001 (Client GB3001) is invalid or has been revoked',
				),
			},
		]);
		expect(String(lost[0].reason)).not.toContain(tokenOf(gb3001));

		// Later polls: nothing more about GB3001 (still tried each poll), the others keep firing.
		await setPayrollStatus(session, 'FR5001', '202611', 'completed', '2026-11-27T10:00:00.000Z');
		await session.clearRequests();
		expect(jsonOf(await trigger.poll())).toEqual([
			expect.objectContaining({ companyId: 'FR5001', month: '202611' }),
		]);
		expect((await apiRequests()).filter((request) => request.pathCompany === 'GB3001')).toEqual([
			{ pathCompany: 'GB3001', tokenCompany: null, status: 401 },
		]);
		expect(await trigger.poll()).toBeNull();
		expect(partnerState(trigger).lost).toEqual({ GB3001: lost[0].reason });

		// A new token for GB3001 (edited in place): one connectionRestored, then quiet.
		const newToken = await session.token('GB3001');
		const renewed = rows.map((row) =>
			row === gb3001 ? { ...row, accessToken: `GB3001:${newToken}` } : row,
		);
		const restoredTrigger = after(trigger, PAYROLL, withRows(credentials, renewed));
		expect(jsonOf(await restoredTrigger.poll())).toEqual([
			{ event: 'connectionRestored', companyId: 'GB3001', label: 'Client GB3001' },
		]);
		expect(await restoredTrigger.poll()).toBeNull();
		expect(partnerState(restoredTrigger).lost).toEqual({});
	});

	it('New Document: a UK company whose token is revoked is reported once, the other keeps firing', async () => {
		const credentials = await session.partner(['GB3001', 'GB7001']);
		const trigger = createTrigger({ event: 'newDocument' }, credentials);
		expect(await trigger.poll()).toBeNull();
		await session.control('POST', '/tokens/revoke', { token: tokenOf(rowsOf(credentials)[1]) });
		expect(jsonOf(await trigger.poll())).toEqual([
			expect.objectContaining({ event: 'connectionLost', companyId: 'GB7001' }),
		]);
		expect(await trigger.poll()).toBeNull();
		expect(Object.keys(partnerState(trigger).lost)).toEqual(['GB7001']);
	});

	it("a row deleted in n8n's editor: only the company whose token n8n dropped is a lost connection, with its reason; no token goes to another company", async () => {
		const credentials = await session.partner(TWELVE);
		const rows = rowsOf(credentials);
		const trigger = createTrigger(PAYROLL, credentials);
		await trigger.poll();

		// Row 11 (FR5003) deleted and saved: the tokens below it move up one row.
		const shifted = rows
			.filter((_, position) => position !== 10)
			.map((kept, position) => ({ ...kept, accessToken: rows[position].accessToken }));
		await session.clearRequests();
		const fired = jsonOf(await after(trigger, PAYROLL, withRows(credentials, shifted)).poll());
		expect(fired).toEqual([
			{
				event: 'connectionLost',
				companyId: 'ES6003',
				label: 'Client ES6003',
				reason: expect.stringContaining('no row holds the token of company ES6003 any more'),
			},
		]);
		const sent = await apiRequests();
		expect(sent).toHaveLength(20);
		for (const request of sent) expect(request.tokenCompany).toBe(request.pathCompany);
	});

	it('a 429, a 5xx or a reset never raises a loss; a 401 raises it once, and it is resolved once, on the first success', async () => {
		const credentials = await session.partner(['FR1001', 'FR1002']);
		const trigger = createTrigger(PAYROLL, credentials);
		await trigger.poll();
		const path = '/companies/FR1002/payroll-status';
		const failFR1002 = async (fault: Record<string, unknown>) => {
			await session.control('DELETE', '/faults');
			await session.injectFault({ path, count: 100, ...fault });
		};
		const transient = [
			{ type: 'status', status: 429, retryAfter: 0 },
			{ type: 'status', status: 503, retryAfter: 0 },
			{ type: 'reset' },
		];
		for (const fault of transient) {
			await failFR1002(fault);
			expect(await trigger.poll()).toBeNull();
			expect(partnerState(trigger).lost).toEqual({});
		}

		await failFR1002({ type: 'status', status: 401 });
		expect(jsonOf(await trigger.poll())).toEqual([
			expect.objectContaining({ event: 'connectionLost', companyId: 'FR1002' }),
		]);
		expect(await trigger.poll()).toBeNull();
		// Still lost through a transient failure: neither a new loss nor a return.
		await failFR1002({ type: 'status', status: 503, retryAfter: 0 });
		expect(await trigger.poll()).toBeNull();
		expect(Object.keys(partnerState(trigger).lost)).toEqual(['FR1002']);

		await session.control('DELETE', '/faults');
		expect(jsonOf(await trigger.poll())).toEqual([
			expect.objectContaining({ event: 'connectionRestored', companyId: 'FR1002' }),
		]);
		expect(await trigger.poll()).toBeNull();
		expect(partnerState(trigger).lost).toEqual({});
	});

	it('with Report Connection Changes off, a revoked token fires nothing and nothing is remembered', async () => {
		const credentials = await session.partner(TWELVE);
		const quiet = { ...PAYROLL, reportConnectionChanges: false };
		const trigger = createTrigger(quiet, credentials);
		await trigger.poll();
		await session.control('POST', '/tokens/revoke', { token: tokenOf(rowsOf(credentials)[0]) });
		expect(await trigger.poll()).toBeNull();
		expect(partnerState(trigger).lost).toEqual({});
	});
});

describe('partner mode: one company failing', () => {
	it("one company's 500s do not stop the poll: the others fire and are stored, its month fires at the next poll", async () => {
		const credentials = await session.partner(TWELVE);
		const trigger = createTrigger(PAYROLL, credentials);
		await trigger.poll();

		await setPayrollStatus(session, 'FR1002', '202611', 'completed', '2026-11-27T10:00:00.000Z');
		await setPayrollStatus(session, 'GB7001', '202611', 'completed', '2026-11-27T11:00:00.000Z');
		await session.injectFault({
			path: '/companies/FR1002/payroll-status',
			type: 'status',
			status: 500,
			retryAfter: 0,
			count: 100,
		});
		expect(jsonOf(await trigger.poll()).map((item) => item.companyId)).toEqual(['GB7001']);
		// Not a connection problem: no connectionLost for FR1002.
		expect(partnerState(trigger).lost).toEqual({});

		await session.control('DELETE', '/faults');
		expect(jsonOf(await trigger.poll()).map((item) => item.companyId)).toEqual(['FR1002']);
		expect(await trigger.poll()).toBeNull();
	});

	/** The error of a poll after the baseline, in which every status request of `companyIds` fails with `status`. */
	async function pollWhereEveryCompanyFails(companyIds: string[], status: number) {
		const trigger = createTrigger(PAYROLL, await session.partner(companyIds));
		await trigger.poll();
		await session.injectFault({
			path: '/payroll-status',
			type: 'status',
			status,
			retryAfter: 0,
			count: 1000,
		});
		return await failureOf(trigger.poll());
	}

	it('every company failing is an error execution, as with one company', async () => {
		const error = await pollWhereEveryCompanyFails(['FR1001', 'FR1002'], 500);
		expect(error.message).toContain('The Partner Payroll service failed (HTTP 500)');
	});

	it('every company failing: the error execution names ten companies with their reasons and counts the rest', async () => {
		const { message } = await pollWhereEveryCompanyFails(TWELVE, 503);
		expect(message).toMatch(/^12 companies failed this poll and none answered: /);
		const named = TWELVE.filter((companyId) =>
			message.includes(
				`${companyId} (Client ${companyId}): The Partner Payroll service failed (HTTP 503)`,
			),
		);
		expect(named).toHaveLength(10);
		expect(message).toMatch(/; and 2 more$/);
	});
});

describe("partner mode: the sandbox's 300 generated companies", () => {
	it('one poll checks all 300 companies × 2 months, each with its own token, and fires for those that complete', async () => {
		await session.control('POST', '/reset', { generatedCompanies: 296 });
		const companyIds = session.sandbox.seed.companyIds as string[];
		expect(companyIds).toHaveLength(300);
		const credentials = await session.partner(companyIds);
		const trigger = createTrigger(PAYROLL, credentials);
		await session.clearRequests();
		expect(await trigger.poll()).toBeNull();
		const sent = await apiRequests();
		expect(sent).toHaveLength(600);
		expect(new Set(sent.map((request) => request.pathCompany)).size).toBe(300);
		for (const request of sent) {
			expect(request.tokenCompany).toBe(request.pathCompany);
			expect(request.status).toBe(200);
		}

		for (const companyId of ['FR5050', 'GB7098', 'ES6099']) {
			await setPayrollStatus(session, companyId, '202611', 'completed', '2026-11-27T10:00:00.000Z');
		}
		expect(jsonOf(await trigger.poll()).map((item) => [item.companyId, item.label])).toEqual([
			['FR5050', 'Client FR5050'],
			['GB7098', 'Client GB7098'],
			['ES6099', 'Client ES6099'],
		]);
		expect(payrollCompanies(trigger)).toHaveLength(300);
	}, 180_000);
});

describe('partner mode: a poll that runs out of time', () => {
	it('keeps what answered, and the companies it did not reach come first at the next poll', async () => {
		const companyIds = Array.from(
			{ length: 40 },
			(_, index) => `C${String(index + 1).padStart(2, '0')}`,
		);
		const received: string[] = [];
		let jumpAt: number | undefined = 5;
		// A service that answers every month "not completed"; at its 5th request the poll's time is up (those in flight still answer).
		const service = await startStubService((request) => {
			received.push(/\/companies\/([^/]+)\//.exec(request.path)?.[1] ?? '');
			if (received.length === jumpAt) advanceWallClock(POLL_BUDGET_MS + 1_000);
			return { status: 200, json: { status: 'not_completed', executionEndDate: null } };
		});
		try {
			const trigger = createTrigger(
				{ ...PAYROLL, months: 'current' },
				stubPartnerCredentials(service.url, companyIds),
			);
			expect(await trigger.poll()).toBeNull();
			const notReached = partnerState(trigger).notReached;
			const answered = Object.keys(
				(trigger.state().payrollCompleted as unknown as PayrollState).companies,
			);
			expect(notReached.length).toBeGreaterThanOrEqual(COMPANIES_IN_FLIGHT);
			expect(new Set([...notReached, ...answered])).toEqual(new Set(companyIds));
			expect(answered.some((companyId) => notReached.includes(companyId))).toBe(false);

			restoreClock();
			setClock('2026-11-15T12:00:00.000Z');
			jumpAt = undefined;
			received.length = 0;
			expect(await trigger.poll()).toBeNull();
			// The first requests of the next poll are for the companies left out, whatever their place in the list.
			for (const companyId of received.slice(0, COMPANIES_IN_FLIGHT)) {
				expect(notReached).toContain(companyId);
			}
			expect(new Set(received)).toEqual(new Set(companyIds));
			expect(partnerState(trigger).notReached).toEqual([]);
		} finally {
			await service.close();
		}
	});
});
