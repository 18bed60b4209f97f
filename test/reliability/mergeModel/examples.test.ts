import { startStubService } from '../../support/stub-service';
import { fakeWait as mockFakeWait } from '../triggerModel/clock';
import { MergeRunner, violations, type Step } from './mergeRunner';

// Fixed histories of the merge model, run by its runner and checked by its property: the cases where
// Svix gives up on a message, so that only the poll can start its run.

jest.mock('../../../nodes/shared/wait', () => ({
	wait: async (ms: number, signal?: AbortSignal) => await mockFakeWait(ms, signal),
}));

let stub: { url: string; close(): Promise<void> };
let current: MergeRunner | undefined;

beforeAll(async () => {
	stub = await startStubService((request) => {
		const month = /\/companies\/[^/]+\/payroll-status$/.test(request.path)
			? request.query.date
			: undefined;
		if (!current || !month) return { status: 404, json: { error: 'Not found' } };
		return { status: 200, json: current.status(month) };
	});
});
afterAll(async () => await stub.close());

async function historyOf(steps: Step[]) {
	current = new MergeRunner(`${stub.url}/api/v1`);
	const run = await current.run(steps);
	return { run, found: violations(run), transcript: run.transcript.join('\n') };
}

const poll: Step = { step: 'poll' };
const complete = (month: 0 | 1 = 0): Step => ({ step: 'complete', month, milliseconds: 250 });
const giveUp: Step = { step: 'giveUp', message: 0 };

it('a hand-over that fails while a poll runs, then Svix gives up: the next poll starts the run', async () => {
	const { run, found, transcript } = await historyOf([
		poll,
		complete(),
		{ step: 'deliver', message: 0, fate: 'failedDuringPoll' },
		giveUp,
	]);
	expect(run.pollOnly).toHaveLength(1);
	expect(found).toEqual([]);
	expect(transcript).toContain('started by the poll');
});
