import { fakeWait as mockFakeWait } from '../triggerModel/clock';
import { MergeRunner, startModelService, violations, type Fault, type Step } from './mergeRunner';

// Fixed histories of the merge model, run by its runner and checked by its property: the cases where
// Svix gives up on a message, so that only the poll can start its run.

jest.mock('../../../nodes/shared/wait', () => ({
	wait: async (ms: number, signal?: AbortSignal) => await mockFakeWait(ms, signal),
}));

let stub: { url: string; close(): Promise<void> };
let current: MergeRunner | undefined;

beforeAll(async () => {
	stub = await startModelService(() => current);
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

it('a hand-over n8n dropped without an answer: the run stays held until a restart, then the poll starts it once Svix gave up', async () => {
	const dropped: Step = { step: 'deliver', message: 1, fate: 'dropped' };
	// The poll fires another month first, so n8n saves its state (the current month not completed yet).
	const before: Step[] = [
		poll,
		complete(0),
		poll,
		complete(1),
		dropped,
		poll,
		{ step: 'giveUp', message: 1 },
	];
	const held = await historyOf(before);
	// Without a restart nothing may start it (n8n may still create that execution): the known limit.
	expect(held.run.held).toHaveLength(1);
	expect(held.run.started.size).toBe(1);
	expect(held.found).toEqual([]);

	const restarted = await historyOf([...before, { step: 'restart' }]);
	expect(restarted.run.held).toEqual([]);
	expect(restarted.found).toEqual([]);
	expect(restarted.run.started.size).toBe(2);
	expect(restarted.transcript).toMatch(/started by the poll: payroll:FR1001:202611/);
});

it('the sender gave up waiting but n8n created the execution, then Svix gives up: started once, by the webhook', async () => {
	const { run, found, transcript } = await historyOf([
		poll,
		complete(),
		{ step: 'deliver', message: 0, fate: 'senderGaveUp' },
		giveUp,
		poll,
	]);
	expect(run.pollOnly).toHaveLength(1);
	expect(found).toEqual([]);
	expect(transcript).toContain('started by the webhook');
	expect(transcript).not.toContain('started by the poll');
});

it("n8n polls when it activates the workflow: a run Svix gave up on, with no poll before it, is still the poll's to start", async () => {
	// The activation poll saw both months not completed, so the run is news to every later poll, not
	// its baseline.
	const { run, found, transcript } = await historyOf([complete(), giveUp]);
	expect(transcript).toMatch(/^activation poll: 0 item\(s\)/);
	expect(run.pollOnly).toHaveLength(1);
	expect(run.baseline).toEqual([]);
	expect(found).toEqual([]);
	expect(transcript).toContain('started by the poll');
});

it('a restart frees a dropped hand-over and its activation poll starts the run; Svix delivering it after does not start it again', async () => {
	const { run, found, transcript } = await historyOf([
		complete(),
		{ step: 'deliver', message: 0, fate: 'dropped' },
		{ step: 'restart' },
	]);
	expect(transcript).toMatch(
		/restart: [^\n]*\nactivation poll: 1 item\(s\)\n {4}→ started by the poll/,
	);
	expect(run.held).toEqual([]);
	expect(found).toEqual([]);
	expect([...run.started.values()]).toEqual([1]);
});

it.each(['restart', 'publish'] as const)(
	"a delivery n8n hands over while an activation's poll runs (%s): the activation's save keeps its run, so the next start does not start it again",
	async (activation) => {
		// n8n answers webhooks during an activation (at a start even before it); the activation saves
		// its copy of the static data, loaded before the delivery, after the delivery's save.
		const { run, found, transcript } = await historyOf([
			complete(),
			{
				step: activation,
				activation: {
					faultPolls: 1,
					delivery: { message: 0, at: 'duringPoll', outcome: 'created' },
					n8n: '2.8',
				},
			},
			{ step: 'restart' },
		]);
		expect(transcript).toContain('started by the webhook');
		expect(found).toEqual([]);
		expect([...run.started.values()]).toEqual([1]);
	},
);

describe('a start whose activation poll fails: n8n keeps the webhook answering and retries the activation with the copy it loaded, no poll scheduled until one succeeds', () => {
	const failingStart = (n8n: '2.8' | '2.40', fault: Fault): Step[] => [
		complete(0),
		complete(1),
		{ step: 'deliver', message: 0, fate: 'dropped' },
		{ step: 'restart', activation: { fault, faultPolls: 2, n8n } },
		// Delivered while no poll is scheduled; the other month's message Svix gives up on.
		{ step: 'deliver', message: 0, fate: 'delivered' },
		{ step: 'giveUp', message: 0 },
		poll,
	];

	it.each(['error', 'cut', 'refused'] as const)(
		'n8n 2.8.4: each retry is a new activation to the trigger and fails again while the service fails (%s)',
		async (fault) => {
			const { found, transcript, run } = await historyOf(failingStart('2.8', fault));
			expect(transcript).toMatch(/restart [^\n]*\nactivation poll: failed/);
			expect(transcript).toMatch(
				/activation retry \(n8n 2\.8\): failed[^\n]*\nactivation retry \(n8n 2\.8\): \d item/,
			);
			expect(run.reached.get('start retried')).toBe(2);
			expect(found).toEqual([]);
			expect([...run.started.values()]).toEqual([1, 1]);
		},
	);

	it('n8n 2.40.7: the retry is the same activation to the trigger, whose second failure is only logged, so the polls are scheduled', async () => {
		const { found, transcript, run } = await historyOf(failingStart('2.40', 'error'));
		expect(transcript).toMatch(/activation poll: failed[^\n]*\n/);
		expect(transcript).toMatch(/activation retry \(n8n 2\.40\): 0 item\(s\)\npoll: 1 item\(s\)/);
		expect(run.reached.get('start retried')).toBe(1);
		expect(found).toEqual([]);
		expect([...run.started.values()]).toEqual([1, 1]);
	});
});

it('a publication whose activation poll fails is undone: deliveries are answered 404 until the next publication, then each run starts once', async () => {
	const { found, transcript, run } = await historyOf([
		complete(0),
		{ step: 'publish', activation: { fault: 'refused', faultPolls: 1, n8n: '2.40' } },
		{ step: 'deliver', message: 0, fate: 'delivered' },
		poll,
		complete(1),
		{ step: 'publish' },
		poll,
	]);
	expect(transcript).toContain('the publication failed: the workflow is unpublished again');
	expect(transcript).toContain('msg_1: 404, the workflow is not published');
	expect(transcript).toContain('poll: none, the workflow is not published');
	expect(found).toEqual([]);
	expect([...run.started.values()]).toEqual([1, 1]);
});
