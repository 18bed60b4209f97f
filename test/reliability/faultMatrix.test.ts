import { SandboxSession } from '../support/fixtures';
import { writeReportIfAsked } from '../support/report';
import { SCENARIOS, type ScenarioResult } from './aroundTheNode';
import {
	DEFAULT_KINDS,
	FAULTS,
	OPERATIONS,
	runMatrixCell,
	type MatrixResult,
	type OperationKind,
} from './faultMatrix';

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());

interface Expected {
	requests: number;
	/** `true` for success, or a pattern the error message must match. */
	outcome: true | RegExp;
	declarations?: number;
	/** Requests that reached the other origin of a redirect (none of them may carry the token). */
	otherOrigin?: number;
}

const recovers: Expected = { requests: 2, outcome: true };
const mayBeRecorded = /^The billing declaration may have been recorded/;
const notSentAgain = (declarations: number): Expected => ({
	requests: 1,
	outcome: mayBeRecorded,
	declarations,
});

// What a user must see for each fault: reads recover within the bounded retries; a declaration
// is sent again only when the service refused it (429) or nothing was sent (connection refused).
const refusedId: Expected = { requests: 0, outcome: /^Company ID must be a single id/ };
const followed = (requests: number, otherOrigin = 0): Expected => ({
	requests,
	outcome: true,
	otherOrigin,
});
const lookupNotFollowed: Expected = {
	requests: 1,
	outcome: /authorization server answered with a redirect/,
	otherOrigin: 0,
};

const EXPECTED: Record<string, Partial<Record<OperationKind, Expected>>> = {
	'429-retry-after': {
		jsonGet: recovers,
		binaryGet: recovers,
		post: { requests: 2, outcome: true, declarations: 1 },
	},
	'429-no-retry-after': {
		jsonGet: recovers,
		binaryGet: recovers,
		post: { requests: 2, outcome: true, declarations: 1 },
	},
	'429-too-long': {
		jsonGet: { requests: 1, outcome: /asked to wait 120 s/ },
		binaryGet: { requests: 1, outcome: /asked to wait 120 s/ },
		post: { requests: 1, outcome: /asked to wait 120 s/, declarations: 0 },
	},
	'500-once': { jsonGet: recovers, binaryGet: recovers, post: notSentAgain(0) },
	'502-once': { jsonGet: recovers, binaryGet: recovers, post: notSentAgain(0) },
	'503-once': { jsonGet: recovers, binaryGet: recovers, post: notSentAgain(0) },
	'504-once': { jsonGet: recovers, binaryGet: recovers, post: notSentAgain(0) },
	'503-always': {
		jsonGet: { requests: 4, outcome: /service failed \(HTTP 503\)/ },
		binaryGet: { requests: 4, outcome: /service failed \(HTTP 503\)/ },
		post: notSentAgain(0),
	},
	'502-after-effect': { jsonGet: recovers, binaryGet: recovers, post: notSentAgain(1) },
	refused: {
		jsonGet: { requests: 0, outcome: /complete answer.*connection refused/ },
		binaryGet: { requests: 0, outcome: /complete answer.*connection refused/ },
		post: { requests: 0, outcome: /complete answer.*connection refused/, declarations: 0 },
	},
	'reset-before': { jsonGet: recovers, binaryGet: recovers, post: notSentAgain(0) },
	'reset-after-effect': { jsonGet: recovers, binaryGet: recovers, post: notSentAgain(1) },
	timeout: { jsonGet: recovers, binaryGet: recovers, post: notSentAgain(1) },
	truncated: {
		jsonGet: recovers,
		binaryGet: recovers,
		post: { requests: 1, outcome: true, declarations: 1 },
	},
	malformed: {
		jsonGet: { requests: 1, outcome: /not valid JSON/ },
		// The payment file format is undocumented: a garbled file cannot be told from a real one.
		binaryGet: { requests: 1, outcome: true },
		// Recorded, then a garbled answer: the node cannot tell, so it says it may have been.
		post: notSentAgain(1),
	},
	'html-error-page': { jsonGet: recovers, binaryGet: recovers, post: notSentAgain(0) },
	'html-200': {
		jsonGet: { requests: 1, outcome: /not valid JSON/ },
		binaryGet: { requests: 1, outcome: /HTML page instead of the file/ },
		post: { requests: 1, outcome: /probably not recorded/, declarations: 0 },
	},
	'cancel-after-send': {
		jsonGet: { requests: 1, outcome: /cancelled/ },
		binaryGet: { requests: 1, outcome: /cancelled/ },
		post: notSentAgain(1),
	},
	'redirect-same-301': {
		jsonGet: followed(2),
		binaryGet: followed(2),
		post: { requests: 2, outcome: /HTTP 404|HTTP 405|Not found/, declarations: 0 },
		lookup: lookupNotFollowed,
	},
	'redirect-same-302': {
		jsonGet: followed(2),
		binaryGet: followed(2),
		post: { requests: 2, outcome: /HTTP 404|HTTP 405|Not found/, declarations: 0 },
		lookup: lookupNotFollowed,
	},
	'redirect-same-307': {
		jsonGet: followed(2),
		binaryGet: followed(2),
		post: { requests: 2, outcome: true, declarations: 1 },
		lookup: lookupNotFollowed,
	},
	'redirect-other-301': {
		jsonGet: followed(1, 1),
		binaryGet: followed(1, 1),
		post: { requests: 1, outcome: true, declarations: 1, otherOrigin: 1 },
		lookup: lookupNotFollowed,
	},
	'redirect-other-302': {
		jsonGet: followed(1, 1),
		binaryGet: followed(1, 1),
		post: { requests: 1, outcome: true, declarations: 1, otherOrigin: 1 },
		lookup: lookupNotFollowed,
	},
	'redirect-other-307': {
		jsonGet: followed(1, 1),
		binaryGet: followed(1, 1),
		post: { requests: 1, outcome: true, declarations: 1, otherOrigin: 1 },
		lookup: lookupNotFollowed,
	},
	'id-backslash': {
		jsonGet: refusedId,
		binaryGet: refusedId,
		post: { ...refusedId, declarations: 0 },
	},
	'id-encoded-slash': {
		jsonGet: refusedId,
		binaryGet: refusedId,
		post: { ...refusedId, declarations: 0 },
	},
	'id-dots': { jsonGet: refusedId, binaryGet: refusedId, post: { ...refusedId, declarations: 0 } },
};

const results: Record<string, Partial<Record<OperationKind, MatrixResult>>> = {};
const cells = Object.entries(FAULTS).flatMap(([faultId, row]) =>
	(row.kinds ?? DEFAULT_KINDS).map((kind) => [faultId, kind] as const),
);

describe('fault matrix: requests received, outcome, duplicate declarations', () => {
	// Up to 4 attempts with waits of about 1, 2 and 4 s.
	jest.setTimeout(30_000);

	it.each(cells)('%s on the %s', async (faultId, kind) => {
		const result = await runMatrixCell(session, kind, FAULTS[faultId]);
		(results[faultId] ??= {})[kind] = result;
		const expected = EXPECTED[faultId][kind]!;

		expect(result.requests).toBe(expected.requests);
		if (expected.outcome === true) {
			expect(result.message).toBeUndefined();
			expect(result.succeeded).toBe(true);
		} else {
			expect(result.message).toMatch(expected.outcome);
		}
		if (kind === 'post') {
			expect(result.declarations).toBe(expected.declarations);
			// Never two declarations for one execution.
			expect(result.declarations).toBeLessThanOrEqual(1);
		}
		expect(result.otherOrigin).toBe(expected.otherOrigin ?? 0);
		// The token goes to the API and the authorization server only.
		expect(result.tokenAtOtherOrigin).toBe(0);
	});
});

const scenarioResults: Record<string, ScenarioResult> = {};

describe('around the node: n8n settings, several items, ids', () => {
	jest.setTimeout(30_000);

	it.each(Object.keys(SCENARIOS))('%s', async (scenarioId) => {
		const scenario = SCENARIOS[scenarioId];
		const result = await scenario.run(session);
		scenarioResults[scenarioId] = result;
		expect(result.requests).toBe(scenario.expected.requests);
		expect(result.declarations).toBe(scenario.expected.declarations);
		if (scenario.expected.outcome === true) expect(result.message).toBeUndefined();
		else expect(result.message).toMatch(scenario.expected.outcome);
		if (scenario.expected.description) {
			expect(result.description).toMatch(scenario.expected.description);
		}
	});
});

function cell(result: MatrixResult | undefined): string {
	if (!result) return 'not run';
	const outcome = result.succeeded
		? 'success'
		: `error: ${String(result.message).replace(/\|/g, '\\|')}`;
	return `${result.requests} → ${outcome}`;
}

afterAll(() => {
	const rows = Object.entries(FAULTS).map(([faultId, row]) => {
		const post = results[faultId]?.post;
		const duplicates = post?.declarations === undefined ? '?' : Math.max(post.declarations - 1, 0);
		const ran = Object.values(results[faultId] ?? {});
		const other = ran.reduce((sum, result) => sum + result.otherOrigin, 0);
		const tokens = ran.reduce((sum, result) => sum + result.tokenAtOtherOrigin, 0);
		const otherOrigin = other ? `${other} (with the token: ${tokens})` : '—';
		const lookup = row.kinds?.includes('lookup') ? cell(results[faultId]?.lookup) : '—';
		return `| ${row.label} | ${cell(results[faultId]?.jsonGet)} | ${cell(results[faultId]?.binaryGet)} | ${cell(post)} | ${lookup} | ${post?.declarations ?? '?'} | ${duplicates} | ${otherOrigin} |`;
	});
	const scenarioRows = Object.entries(SCENARIOS).map(([scenarioId, scenario]) => {
		const result = scenarioResults[scenarioId];
		const outcome = !result
			? 'not run'
			: result.message
				? `error: ${result.message.replace(/\|/g, '\\|')}${result.description ? ` (${result.description.replace(/\|/g, '\\|')})` : ''}`
				: `success${result.description ? ` (${result.description})` : ''}`;
		return `| ${scenario.label} | ${result?.requests ?? '?'} | ${result?.declarations ?? '—'} | ${outcome} |`;
	});
	writeReportIfAsked(
		'RELIABILITY_REPORT',
		[
			'# Reliability: the fault matrix',
			'',
			'Written by `npm run reliability` from the run of `test/reliability/faultMatrix.test.ts`: each fault is',
			'injected by the local sandbox into the next request of one operation, which the node then runs in',
			"n8n-core's execution engine (the node's `execute()`) over real HTTP. A cell reads *requests the service received → outcome*.",
			'Do not edit by hand; run the script again.',
			'',
			`| Fault | ${OPERATIONS.jsonGet.label} | ${OPERATIONS.binaryGet.label} | ${OPERATIONS.post.label} | ${OPERATIONS.lookup.label} | Declarations recorded | Duplicate declarations | Requests at the other origin |`,
			'|---|---|---|---|---|---|---|---|',
			...rows,
			'',
			'## Around the node: n8n settings, several items, ids',
			'',
			'What n8n does around the node (Retry On Fail runs it again in the same execution, every item starts',
			'at once, Request Options), run the same way. Requests are those of the operation at the service.',
			'',
			'| Scenario | Requests | Declarations recorded | Outcome |',
			'|---|---|---|---|',
			...scenarioRows,
			'',
			'Connection refused: the service received nothing, so even the declaration may be sent again (the',
			'only case besides a 429). The rules are in the README, "Errors and retries".',
			'',
		].join('\n'),
	);
});
