'use strict';
// The trigger's exactly-once promises where poll timing and n8n's own behaviour decide, inside a real
// n8n (`n8n start`, published workflows): a month reopened and completed again between two polls (no
// poll sees it open) fires once more; renaming the trigger node and publishing fires nothing again and
// the renamed trigger still fires; a New Document batch whose PDFs take longer than one poll's budget
// delivers every PDF, each once, over several polls.
const {
	pollSchedule,
	TRIGGER_NAME,
	monthFromNow,
	startPublishedTrigger,
	setPayrollStatus,
	statusPollsOf,
	waitForStatusPolls,
	triggerItems,
	editAndPublish,
	storedTriggerState,
	sandboxControl,
	nodeItems,
	binaryBytes,
	sha256,
} = require('../lib');

const SCHEDULE = pollSchedule();
jest.setTimeout(SCHEDULE.waitMs(8) + 120_000);

const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
const COMPANY = 'FR1001';
const TIME_ZONE = 'Europe/Paris';
const CURRENT = monthFromNow(0, TIME_ZONE);

/** The trigger's items of every execution, oldest execution first. */
const itemsOldestFirst = (executions) =>
	[...executions]
		.sort((a, b) => Number(a.id) - Number(b.id))
		.map((execution) => triggerItems(execution));

describe('Payroll Completed: poll timing and renames', () => {
	const WORKFLOW_ID = 'wfTriggerPromise1';
	const RENAMED = 'When payroll closes';
	let trigger;

	const setStatus = (status, executionEndDate = null) =>
		setPayrollStatus(trigger.sandbox, {
			companyId: COMPANY,
			month: CURRENT,
			status,
			executionEndDate,
		});
	const pollsSoFar = () => statusPollsOf(trigger.sandbox, COMPANY, CURRENT);
	const waitForPolls = async (count) =>
		await waitForStatusPolls(trigger.sandbox, {
			companyId: COMPANY,
			month: CURRENT,
			since: await pollsSoFar(),
			count,
			schedule: SCHEDULE,
		});
	const waitForExecutions = async (count) =>
		await trigger.api.finishedExecutions(WORKFLOW_ID, count, SCHEDULE.waitMs(2));

	beforeAll(async () => {
		trigger = await startPublishedTrigger({
			prefix: 'n8n-e2e-trigger-promises-',
			workflow: { id: WORKFLOW_ID, name: 'Payroll completed, promises (e2e)' },
			credential: { id: 'ppPromisesToken1', name: 'Promises token' },
			companyId: COMPANY,
			parameters: { companyId: COMPANY, months: 'current' },
			timeZone: TIME_ZONE,
			schedule: SCHEDULE,
			beforeStart: async (sandbox) =>
				await setPayrollStatus(sandbox, {
					companyId: COMPANY,
					month: CURRENT,
					status: 'not_completed',
				}),
		});
	}, SETUP_TIMEOUT_MS);

	afterAll(async () => {
		await trigger?.dispose();
	});

	it('reopened and completed again between two polls: exactly one more execution, a re-run keyed by its end', async () => {
		await waitForPolls(1);
		await setStatus('completed', '2026-11-27T16:00:00.000Z');
		const [first] = itemsOldestFirst(await waitForExecutions(1));
		expect(first).toEqual([
			expect.objectContaining({
				month: CURRENT,
				isRerun: false,
				dedupeKey: `payroll:${COMPANY}:${CURRENT}`,
				source: 'poll',
			}),
		]);

		// Both changes right after a poll: no poll sees the month open.
		await waitForPolls(1);
		await setStatus('not_completed');
		await setStatus('completed', '2026-11-29T08:00:00Z');
		const all = itemsOldestFirst(await waitForExecutions(2));
		expect(all[1]).toEqual([
			expect.objectContaining({
				month: CURRENT,
				executionEndDate: '2026-11-29T08:00:00Z',
				isRerun: true,
				dedupeKey: `payroll:${COMPANY}:${CURRENT}:2026-11-29T08:00:00.000Z`,
			}),
		]);
		await waitForPolls(SCHEDULE.quietPolls);
		expect(await trigger.api.executions(WORKFLOW_ID)).toHaveLength(2);
	});

	it('renamed in the editor and published: nothing fires again, the state stays, and the renamed trigger still fires', async () => {
		const before = await storedTriggerState(trigger.rest, WORKFLOW_ID);
		await editAndPublish(trigger.rest, WORKFLOW_ID, (loaded) => ({
			nodes: loaded.nodes.map((node) =>
				node.name === TRIGGER_NAME ? { ...node, name: RENAMED } : node,
			),
			connections: { [RENAMED]: loaded.connections[TRIGGER_NAME] },
		}));
		await waitForPolls(1 + SCHEDULE.quietPolls);
		expect(await trigger.api.executions(WORKFLOW_ID)).toHaveLength(2);
		expect(await storedTriggerState(trigger.rest, WORKFLOW_ID)).toEqual(before);

		await setStatus('completed', '2026-11-30T10:00:00.000Z');
		const newest = [...(await waitForExecutions(3))].sort((a, b) => Number(b.id) - Number(a.id))[0];
		expect(triggerItems(newest, RENAMED)).toEqual([
			expect.objectContaining({ month: CURRENT, isRerun: true }),
		]);
	});
});

describe('New Document: a batch longer than one poll', () => {
	const WORKFLOW_ID = 'wfTriggerPromise2';
	// Every PDF takes 8 s: 6 of them take 48 s, more than the 30 s budget of one poll.
	const DOCUMENTS = 6;
	const PDF_DELAY_MS = 8_000;
	let trigger;

	beforeAll(async () => {
		trigger = await startPublishedTrigger({
			prefix: 'n8n-e2e-trigger-documents-',
			workflow: { id: WORKFLOW_ID, name: 'New documents with PDFs (e2e)' },
			credential: { id: 'ppDocumentsToken1', name: 'Documents token' },
			companyId: 'GB3001',
			parameters: {
				event: 'newDocument',
				companyId: 'GB3001',
				documentTypes: ['incomeTax'],
				options: { attachPdf: true, fireForExisting: true },
			},
			timeZone: TIME_ZONE,
			schedule: SCHEDULE,
			sandboxOptions: { listedDocuments: DOCUMENTS },
			beforeStart: async (sandbox) =>
				await sandboxControl(sandbox, 'POST', '/faults', {
					path: '/documents/',
					type: 'delay',
					delayMs: PDF_DELAY_MS,
					count: 100,
				}),
		});
	}, SETUP_TIMEOUT_MS);

	afterAll(async () => {
		await trigger?.dispose();
	});

	it('every PDF arrives, each once with every byte, over several executions', async () => {
		const { api, sandbox, instance } = trigger;
		const deadline = Date.now() + SCHEDULE.waitMs(6);
		let items = [];
		while (items.length < DOCUMENTS && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 5_000));
			const executions = await api.executions(WORKFLOW_ID);
			items = executions
				.filter((execution) => execution.stoppedAt)
				.flatMap((execution) => nodeItems(execution, TRIGGER_NAME));
		}
		const executions = await api.executions(WORKFLOW_ID);
		expect(executions.length).toBeGreaterThan(1);
		const ids = items.map((item) => item.json.documentId);
		expect(ids).toHaveLength(DOCUMENTS);
		expect(new Set(ids).size).toBe(DOCUMENTS);
		for (const item of items) {
			expect(item.json.pdfError).toBeNull();
			expect(sha256(binaryBytes(instance.userFolder, item.binary.data))).toBe(
				sha256(sandbox.seed.document('GB3001', item.json.documentId)),
			);
		}
	});
});
