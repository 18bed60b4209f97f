import { createRunExecutionData, type INodeParameters } from 'n8n-workflow';

import { SandboxSession, runPartnerPayroll } from '../support/fixtures';
import { startLoggingProxy } from '../support/logging-proxy';

// Scenarios of docs/reliability.md's second table: what n8n does around the node, run through
// n8n-core's execution engine (the node's `execute()`) against the sandbox over real HTTP.

const COMPANY = 'FR1001';
const DECLARATIONS = `/api/v1/companies/${COMPANY}/billing-declarations`;

export interface ScenarioResult {
	/** Requests of the operation the service received. */
	requests: number;
	declarations?: number;
	message?: string;
	description?: string;
}

interface Scenario {
	label: string;
	expected: {
		requests: number;
		declarations?: number;
		outcome: true | RegExp;
		description?: RegExp;
	};
	run(session: SandboxSession): Promise<ScenarioResult>;
}

const createFromItems: INodeParameters = {
	resource: 'billingDeclaration',
	operation: 'create',
	companyId: '={{ $json.companyId }}',
	monthOfApplication: '={{ $json.month }}',
	quantityByProducts: { product: [{ productName: 'Payroll', quantity: 3 }] },
};

const itemsOf = (...rows: Array<[string, string]>) =>
	rows.map(([companyId, month]) => ({ json: { companyId, month } }));

async function attempt(
	run: () => Promise<unknown>,
): Promise<Pick<ScenarioResult, 'message' | 'description'>> {
	try {
		await run();
		return {};
	} catch (error) {
		const { message, description } = error as { message: string; description?: string };
		return { message, description: description ?? undefined };
	}
}

async function declarationsAt(session: SandboxSession): Promise<number> {
	return ((await session.control('GET', `/billing-declarations?companyId=${COMPANY}`)) as unknown[])
		.length;
}

async function postsAt(session: SandboxSession): Promise<number> {
	return (await session.requests()).filter((request) => request.path === DECLARATIONS).length;
}

/** Create with three items, the 2nd of them `second`, counting what the service got. */
function threeItems(second: [string, string]): Scenario['run'] {
	return async (session) => {
		await session.reset();
		const token = await session.token(COMPANY);
		await session.clearRequests();
		const outcome = await attempt(
			async () =>
				await runPartnerPayroll(createFromItems, session.accessToken(token), {
					items: itemsOf([COMPANY, '202610'], second, [COMPANY, '202612']),
				}),
		);
		// The POSTs to the API; a 404 on a typed Company ID also asks the authorization server
		// (a read) whose company the token is for.
		const requests = (await session.requests()).filter(
			(request) => request.method === 'POST' && request.path !== '/oauth/introspect',
		).length;
		return { requests, declarations: await declarationsAt(session), ...outcome };
	};
}

export const SCENARIOS: Record<string, Scenario> = {
	'retry-on-fail': {
		label:
			'Retry On Fail after a lost answer (502 after the declaration was recorded), then the retry',
		expected: {
			requests: 1,
			declarations: 1,
			outcome: /^The billing declaration was not sent again/,
		},
		async run(session) {
			await session.reset();
			const token = await session.token(COMPANY);
			await session.injectFault({
				path: DECLARATIONS,
				method: 'POST',
				type: 'status',
				status: 502,
				afterEffect: true,
			});
			await session.clearRequests();
			const execution = createRunExecutionData();
			const parameters = { ...createFromItems, companyId: COMPANY, monthOfApplication: '202610' };
			const run = async () =>
				await runPartnerPayroll(parameters, session.accessToken(token), {
					runExecutionData: execution,
				});
			await attempt(run); // the first try: "may have been recorded"
			const retry = await attempt(run); // n8n's retry, in the same execution
			return {
				requests: await postsAt(session),
				declarations: await declarationsAt(session),
				...retry,
			};
		},
	},
	'bad-second-month': {
		label: 'Create with 3 items, the 2nd with month `2026-13`',
		expected: {
			requests: 0,
			declarations: 0,
			outcome: /Month of Application must be a month as YYYYMM/,
		},
		run: threeItems([COMPANY, '2026-13']),
	},
	'refused-second': {
		label: 'Create with 3 items, the service refusing the 2nd (another company: 404)',
		expected: {
			requests: 2,
			declarations: 1,
			outcome: /^Not found/,
			description: /Recorded before it: item 0 \(202610\)\. Not sent: item 2 \(202612\)/,
		},
		run: threeItems(['GB3001', '202611']),
	},
	'proxy-download-files': {
		label:
			'Request Options → Proxy, Download Files of a listing with an empty Company ID: requests through the proxy / all requests',
		expected: { requests: 0, outcome: true },
		async run(session) {
			await session.reset();
			const token = await session.token('GB3001');
			const proxy = await startLoggingProxy();
			try {
				await session.clearRequests();
				const outcome = await attempt(
					async () =>
						await runPartnerPayroll(
							{
								resource: 'document',
								operation: 'getIncomeTaxDocuments',
								companyId: '',
								options: { downloadFiles: true },
								requestOptions: { proxy: proxy.url },
							},
							session.accessToken(token),
						),
				);
				const all = (await session.requests()).length;
				const proxied = proxy.requests().length;
				// Requests that did not pass the proxy: none.
				return {
					requests: all - proxied,
					...outcome,
					description: `${proxied} of ${all} through the proxy`,
				};
			} finally {
				await proxy.close();
			}
		},
	},
};
