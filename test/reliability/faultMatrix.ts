import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SandboxSession, runPartnerPayroll } from '../support/fixtures';
import { closedPort, pause } from '../support/network';

// The fault matrix of docs/reliability.md: every fault the sandbox can inject, against one
// operation of each kind, run through n8n-core's execution engine (the node's `execute()`) over real HTTP.

export type OperationKind = 'jsonGet' | 'binaryGet' | 'post' | 'lookup';

interface MatrixOperation {
	label: string;
	/** Path the sandbox logs for this operation's request. */
	path: string;
	parameters: INodeParameters;
}

const COMPANY = 'FR1001';
const MONTH = '202610';

export const OPERATIONS: Record<OperationKind, MatrixOperation> = {
	jsonGet: {
		label: 'JSON GET (Payroll → Get Status)',
		path: `/api/v1/companies/${COMPANY}/payroll-status`,
		parameters: { resource: 'payroll', operation: 'getStatus', companyId: COMPANY, month: MONTH },
	},
	binaryGet: {
		label: 'Binary GET (Payroll → Download Payment File)',
		path: `/api/v1/companies/${COMPANY}/payment-files`,
		parameters: {
			resource: 'payroll',
			operation: 'downloadPaymentFile',
			companyId: COMPANY,
			month: MONTH,
		},
	},
	post: {
		label: 'POST (Billing Declaration → Create)',
		path: `/api/v1/companies/${COMPANY}/billing-declarations`,
		parameters: {
			resource: 'billingDeclaration',
			operation: 'create',
			companyId: COMPANY,
			monthOfApplication: MONTH,
			quantityByProducts: { product: [{ productName: 'Payroll', quantity: 3 }] },
		},
	},
	lookup: {
		label: 'Token lookup (Get Status with an empty Company ID: introspection)',
		path: '/oauth/introspect',
		parameters: { resource: 'payroll', operation: 'getStatus', companyId: '', month: MONTH },
	},
};

/** The operations a row runs against unless it names its own. */
export const DEFAULT_KINDS: OperationKind[] = ['jsonGet', 'binaryGet', 'post'];

export interface FaultRow {
	label: string;
	/** A sandbox fault (path and method are added per operation). */
	fault?: IDataObject;
	/** Point the credential at a port where nothing listens. */
	refused?: boolean;
	/** The node's Timeout option (Request Options), in ms. */
	timeoutMs?: number;
	/** The sandbox logs a request when its answer ends, which may be after the client gave up. */
	settleMs?: number;
	/** The user stops the execution once the service has its request (not after a time: a loaded machine may not have sent it yet). */
	stopOnceSent?: boolean;
	/** Parameters that replace the operation's own (an id that must be refused). */
	parameters?: INodeParameters;
	/** The operations this row runs against. */
	kinds?: OperationKind[];
}

export const FAULTS: Record<string, FaultRow> = {
	'429-retry-after': {
		label: '429 with `Retry-After: 1`',
		fault: { type: 'status', status: 429, retryAfter: 1 },
	},
	'429-no-retry-after': {
		label: '429 without `Retry-After`',
		fault: { type: 'status', status: 429 },
	},
	'429-too-long': {
		label: '429 with `Retry-After: 120` (above the 30 s cap)',
		fault: { type: 'status', status: 429, retryAfter: 120 },
	},
	'500-once': { label: '500 once', fault: { type: 'status', status: 500 } },
	'502-once': { label: '502 once', fault: { type: 'status', status: 502 } },
	'503-once': { label: '503 once', fault: { type: 'status', status: 503 } },
	'504-once': { label: '504 once', fault: { type: 'status', status: 504 } },
	'503-always': {
		label: '503 on every attempt',
		fault: { type: 'status', status: 503, count: 10 },
	},
	'502-after-effect': {
		label: '502 after the request took effect',
		fault: { type: 'status', status: 502, afterEffect: true },
	},
	refused: { label: 'Connection refused (nothing listens)', refused: true },
	'reset-before': { label: 'Reset before the answer', fault: { type: 'reset' } },
	'reset-after-effect': {
		label: 'Reset after the request took effect',
		fault: { type: 'reset', afterEffect: true },
	},
	timeout: {
		label: 'Timeout (effect at once, answer after 1.5 s; Timeout option 0.5 s)',
		fault: { type: 'delay', delayMs: 1500, afterEffect: true },
		timeoutMs: 500,
		settleMs: 1500,
	},
	truncated: {
		label: 'Truncated body (connection cut mid-answer; a 204 has no body to cut)',
		fault: { type: 'truncate' },
	},
	malformed: {
		label: 'Malformed 200 (broken JSON, or HTML for files)',
		fault: { type: 'malformed' },
	},
	'html-error-page': {
		label: 'HTML error page (502 from a proxy)',
		fault: { type: 'status', status: 502, html: true },
	},
	'html-200': {
		label: 'HTML sign-in page with 200 (a wrong API Base URL)',
		fault: { type: 'html200' },
	},
	'cancel-after-send': {
		label: 'Execution stopped once the service has the request (answer held 2 s after the effect)',
		fault: { type: 'delay', delayMs: 2000, afterEffect: true },
		stopOnceSent: true,
		settleMs: 1000,
	},
	...Object.fromEntries(
		([301, 302, 307] as const).flatMap((status) => [
			[
				`redirect-same-${status}`,
				{
					label: `${status} to the same origin`,
					fault: { type: 'redirect', status, to: 'same' },
					kinds: [...DEFAULT_KINDS, 'lookup'],
				},
			],
			[
				`redirect-other-${status}`,
				{
					label: `${status} to another origin (signed storage, which refuses a bearer token)`,
					fault: { type: 'redirect', status, to: 'other' },
					kinds: [...DEFAULT_KINDS, 'lookup'],
				},
			],
		]),
	),
	'id-backslash': {
		label: 'Company ID `FR1001\\..\\..\\admin` (backslashes)',
		parameters: { companyId: 'FR1001\\..\\..\\admin' },
	},
	'id-encoded-slash': {
		label: 'Company ID `FR1001%2F..%2Fadmin` (encoded slashes)',
		parameters: { companyId: 'FR1001%2F..%2Fadmin' },
	},
	'id-dots': { label: 'Company ID `..`', parameters: { companyId: '..' } },
};

export interface MatrixResult {
	/** Requests the service received. */
	requests: number;
	succeeded: boolean;
	/** The error message n8n shows, when the run failed. */
	message?: string;
	/** Billing declarations the service recorded (POST only). */
	declarations?: number;
	/** Requests that reached the other origin of a redirect, and how many of them carried the token. */
	otherOrigin: number;
	tokenAtOtherOrigin: number;
}

/** Aborts once the service has the request: its fault taken and, for a POST, the declaration recorded. */
async function stopOnceSent(
	session: SandboxSession,
	operationKind: OperationKind,
	stop: AbortController,
	ended: () => boolean,
): Promise<void> {
	while (!ended()) {
		const sent =
			operationKind === 'post'
				? (
						(await session.control(
							'GET',
							`/billing-declarations?companyId=${COMPANY}`,
						)) as unknown[]
					).length > 0
				: ((await session.control('GET', '/faults')) as unknown[]).length === 0;
		if (sent) return stop.abort();
		await pause(20);
	}
}

export async function runMatrixCell(
	session: SandboxSession,
	operationKind: OperationKind,
	row: FaultRow,
): Promise<MatrixResult> {
	const operation = OPERATIONS[operationKind];
	await session.reset();
	const token = await session.token(COMPANY);
	if (row.fault) {
		await session.injectFault({
			...row.fault,
			path: operation.path,
			method: ['post', 'lookup'].includes(operationKind) ? 'POST' : 'GET',
		});
	}
	const baseUrl = row.refused ? `http://127.0.0.1:${await closedPort()}/api/v1` : undefined;
	const parameters: INodeParameters = {
		...operation.parameters,
		...(row.parameters ?? {}),
		...(row.timeoutMs ? { requestOptions: { timeout: row.timeoutMs } } : {}),
	};
	// The user stops the execution: n8n aborts its cancel signal.
	const stop = row.stopOnceSent ? new AbortController() : undefined;
	await session.clearRequests();

	let succeeded = true;
	let message: string | undefined;
	let ended = false;
	const stopped = stop && stopOnceSent(session, operationKind, stop, () => ended);
	try {
		await runPartnerPayroll(parameters, session.accessToken(token, { baseUrl }), {
			abortSignal: stop?.signal,
		});
	} catch (error) {
		succeeded = false;
		message = (error as Error).message;
	} finally {
		ended = true;
		await stopped;
	}
	if (row.settleMs) await pause(row.settleMs);
	const requests = (await session.requests()).filter((entry) => entry.path === operation.path);
	const declarations =
		operationKind === 'post'
			? ((await session.control('GET', `/billing-declarations?companyId=${COMPANY}`)) as unknown[])
					.length
			: undefined;
	const storage = await session.storageRequests();
	return {
		requests: requests.length,
		succeeded,
		message,
		declarations,
		otherOrigin: storage.length,
		tokenAtOtherOrigin: storage.filter((request) => request.authorization).length,
	};
}
