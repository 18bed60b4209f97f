import { ObservableObject, type IDataObject } from 'n8n-workflow';

import {
	RUNS_FIELD,
	RUNS_KEPT,
	adoptStoredRuns,
	claimItems,
	claimRun,
	holdRun,
	holdRunForPoll,
	isRunHeld,
	isRunStarted,
	keepRunsInPollCopy,
	releasePollHolds,
	releaseRun,
	runKeyOf,
	startRun,
	storableRuns,
} from '../../../nodes/shared/runClaims';
import { recordDigest } from '../../../nodes/shared/recordDigest';
import { inTimeZone } from '../../support/time-zone';

/** How static data holds the runs: their keys' digests, oldest first. */
const stored = (...keys: string[]) => keys.map(recordDigest);

describe('run claims', () => {
	it('a run is claimed once per workflow; another workflow claims its own', () => {
		expect(claimRun('wf-a', 'payroll:FR1001:202611')).toBe(true);
		expect(claimRun('wf-a', 'payroll:FR1001:202611')).toBe(false);
		expect(claimRun('wf-b', 'payroll:FR1001:202611')).toBe(true);
	});

	it('a held run is taken until it starts or is released, however long its outcome takes', () => {
		expect(holdRun('wf', 'run-1')).toBe(true);
		expect(claimRun('wf', 'run-1')).toBe(false);
		expect(storableRuns('wf')).toEqual([]);
		startRun('wf', 'run-1');
		expect(storableRuns('wf')).toEqual(stored('run-1'));

		expect(holdRun('wf', 'run-2')).toBe(true);
		releaseRun('wf', 'run-2');
		expect(claimRun('wf', 'run-2')).toBe(true);

		// A hold takes no time as input: it cannot lapse, however late the outcome comes.
		expect(holdRun('wf', 'run-3')).toBe(true);
		expect(holdRun('wf', 'run-3')).toBe(false);
		expect(isRunStarted('wf', 'run-3')).toBe(false);
	});

	it("a poll's holds: its own runs start as it returns them, another's stay taken, the rest are free when it ends", () => {
		const poll = {};
		const items = ['run-1', 'run-2'].map((dedupeKey) => ({ json: { dedupeKey } }));
		expect(holdRunForPoll(poll, 'wf', 'run-1')).toBe(true);
		expect(holdRunForPoll(poll, 'wf', 'run-3')).toBe(true);
		// A delivery meanwhile: the run is taken ("retry later"), as another poll's check finds it held.
		expect(holdRun('wf', 'run-1')).toBe(false);
		expect(holdRunForPoll({}, 'wf', 'run-1')).toBe(false);
		expect(holdRun('wf', 'run-2')).toBe(true);
		// Another poll (or none) cannot take the poll's hold; the poll itself starts it.
		expect(claimItems('wf', items, {})).toEqual([]);
		expect(claimItems('wf', items, poll)).toEqual(items.slice(0, 1));
		expect(isRunStarted('wf', 'run-1')).toBe(true);
		// Another poll that ends gives back only its own holds.
		releasePollHolds('wf', {});
		expect(isRunHeld('wf', 'run-3')).toBe(true);
		// The poll ends: a hold it did not return is given back, the webhook's stays.
		releasePollHolds('wf', poll);
		expect(isRunHeld('wf', 'run-3')).toBe(false);
		expect(isRunHeld('wf', 'run-2')).toBe(true);
		expect(claimItems('wf', items, poll)).toEqual([]);
	});

	it('adopts the runs a stored list holds, and ignores entries and lists of another shape', () => {
		adoptStoredRuns('wf', [...stored('run-1'), 7, null]);
		adoptStoredRuns('wf', { [recordDigest('run-2')]: 1 });
		adoptStoredRuns('wf', null);
		expect(claimRun('wf', 'run-1')).toBe(false);
		expect(claimRun('wf', 'run-2')).toBe(true);
		// What a restarted process reads back is what it stored: the runs stay taken.
		adoptStoredRuns('wf-restarted', storableRuns('wf'));
		expect(claimRun('wf-restarted', 'run-1')).toBe(false);
		expect(claimRun('wf-restarted', 'run-2')).toBe(false);
		expect(claimRun('wf-restarted', 'run-3')).toBe(true);
	});

	it("writes every run started into the poll activation's copy of the static data, marking it for n8n's save", () => {
		// The copy n8n loaded for the activation, observed for changes as n8n's Workflow does.
		const root = ObservableObject.create({ global: {} }) as IDataObject & {
			__dataChanged: boolean;
		};
		const copy = root.global as IDataObject;
		claimRun('wf', 'run-1');
		claimRun('wf-other', 'run-9');
		keepRunsInPollCopy('wf', copy);
		expect(copy[RUNS_FIELD]).toEqual(stored('run-1'));
		expect(root.__dataChanged).toBe(true);

		// A delivery hands run-2 over after the copy was loaded: the copy gets it at once.
		root.__dataChanged = false;
		expect(holdRun('wf', 'run-2')).toBe(true);
		expect(copy[RUNS_FIELD]).toEqual(stored('run-1'));
		startRun('wf', 'run-2');
		expect(copy[RUNS_FIELD]).toEqual(stored('run-1', 'run-2'));
		expect(root.__dataChanged).toBe(true);

		// Runs the copy already holds change nothing, so n8n has nothing new to save.
		root.__dataChanged = false;
		adoptStoredRuns('wf', stored('run-1'));
		expect(claimItems('wf', [{ json: { dedupeKey: 'run-2' } }])).toEqual([]);
		expect(root.__dataChanged).toBe(false);
	});

	it('keeps the newest runs of a workflow, the oldest dropped first', () => {
		for (let index = 0; index < RUNS_KEPT + 5; index += 1) claimRun('wf', `run-${index}`);
		const kept = storableRuns('wf');
		expect(kept).toHaveLength(RUNS_KEPT);
		expect(kept[0]).toBe(recordDigest('run-5'));
		expect(kept.at(-1)).toBe(recordDigest(`run-${RUNS_KEPT + 4}`));
	});

	it('claimItems keeps the items whose run it claimed, and items that name no run', () => {
		claimRun('wf', 'payroll:FR1001:202611');
		const items = [
			{ json: { dedupeKey: 'payroll:FR1001:202611' } },
			{ json: { dedupeKey: 'payroll:FR1002:202611' } },
			{ json: { event: 'connectionLost' } },
		];
		expect(claimItems('wf', items)).toEqual(items.slice(1));
	});

	it('a payroll run has one key whichever trigger saw it first: company, month and end instant', () => {
		const fromPoll = {
			companyId: 'FR1001',
			month: '202611',
			executionEndDate: '2026-11-27T16:00:00Z',
			dedupeKey: 'payroll:FR1001:202611',
			source: 'poll',
		};
		const fromWebhook = {
			event: 'payroll.run',
			companyId: 'FR1001',
			month: '202611',
			effectiveDate: '2026-11-27T16:00:00.000Z',
			dedupeKey: 'payroll:FR1001:202611:2026-11-27T16:00:00.000Z',
			source: 'webhook',
		};
		expect(runKeyOf(fromPoll)).toBe('payroll:FR1001:202611:2026-11-27T16:00:00.000Z');
		expect(runKeyOf(fromWebhook)).toBe(runKeyOf(fromPoll));
		// The status has milliseconds; the service writes effectiveDate to the second.
		const withMilliseconds = { ...fromPoll, executionEndDate: '2026-11-27T16:00:00.437Z' };
		const toTheSecond = { ...fromWebhook, effectiveDate: '2026-11-27T16:00:00+00:00' };
		expect(runKeyOf(toTheSecond)).toBe(runKeyOf(withMilliseconds));
		expect(runKeyOf({ ...fromPoll, executionEndDate: '2026-11-28T09:00:00Z' })).not.toBe(
			runKeyOf(fromPoll),
		);
		expect(runKeyOf({ dedupeKey: 'integration:FR1001:deactivated:2026-12-01T09:00:00.000Z' })).toBe(
			'integration:FR1001:deactivated:2026-12-01T09:00:00.000Z',
		);
		expect(runKeyOf({ event: 'connectionLost' })).toBeUndefined();
	});

	it('a date-time without an offset is UTC for both triggers, whatever the zone of the server', () => {
		const [fromPoll, fromWebhook] = inTimeZone<string[]>(
			'Europe/Paris',
			`const { runKeyOf } = dist('nodes/shared/runClaims');
			const run = { companyId: 'FR1001', month: '202611' };
			return [
				runKeyOf({ ...run, executionEndDate: '2026-11-27T16:00:00.250' }),
				runKeyOf({ ...run, effectiveDate: '2026-11-27T16:00:00.000Z' }),
			];`,
		);
		expect(fromPoll).toBe('payroll:FR1001:202611:2026-11-27T16:00:00.000Z');
		expect(fromWebhook).toBe(fromPoll);
	});
});
