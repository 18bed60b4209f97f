import { SandboxSession } from '../support/fixtures';
import { writeReportIfAsked } from '../support/report';
import {
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
const EXPECTED: Record<string, Record<OperationKind, Expected>> = {
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
		post: { requests: 1, outcome: true, declarations: 1 },
	},
	'html-error-page': { jsonGet: recovers, binaryGet: recovers, post: notSentAgain(0) },
};

const results: Record<string, Partial<Record<OperationKind, MatrixResult>>> = {};
const kinds = Object.keys(OPERATIONS) as OperationKind[];
const cells = Object.keys(FAULTS).flatMap((faultId) =>
	kinds.map((kind) => [faultId, kind] as const),
);

describe('fault matrix: requests received, outcome, duplicate declarations', () => {
	// Up to 4 attempts with waits of about 1, 2 and 4 s.
	jest.setTimeout(30_000);

	it.each(cells)('%s on the %s', async (faultId, kind) => {
		const result = await runMatrixCell(session, kind, FAULTS[faultId]);
		(results[faultId] ??= {})[kind] = result;
		const expected = EXPECTED[faultId][kind];

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
		return `| ${row.label} | ${cell(results[faultId]?.jsonGet)} | ${cell(results[faultId]?.binaryGet)} | ${cell(post)} | ${post?.declarations ?? '?'} | ${duplicates} |`;
	});
	writeReportIfAsked(
		'RELIABILITY_REPORT',
		[
			'# Reliability: the fault matrix',
			'',
			'Written by `npm run reliability` from the run of `test/reliability/faultMatrix.test.ts`: each fault is',
			'injected by the local sandbox into the next request of one operation, which the node then runs in',
			"n8n-core's routing engine over real HTTP. A cell reads *requests the service received → outcome*.",
			'Do not edit by hand; run the script again.',
			'',
			`| Fault | ${OPERATIONS.jsonGet.label} | ${OPERATIONS.binaryGet.label} | ${OPERATIONS.post.label} | Declarations recorded | Duplicate declarations |`,
			'|---|---|---|---|---|---|',
			...rows,
			'',
			'Connection refused: the service received nothing, so even the declaration may be sent again (the',
			'only case besides a 429). The rules are in the README, "Errors and retries".',
			'',
		].join('\n'),
	);
});
