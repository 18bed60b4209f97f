import { sleep } from 'n8n-workflow';

import { runPartnerPayroll } from '../../support/fixtures';
import { startStubService, type StubAnswer } from '../../support/stub-service';

// Reads of one run go out together (a few at once), and their outputs keep the input order; a write
// goes one at a time. A server that answers only once GATE requests wait at the same moment shows
// it without any timing: items sent one after the other would never open the gate.

const GATE = 4;

interface GateServer {
	url: string;
	arrivals: string[];
	close(): Promise<void>;
}

async function startGateServer(): Promise<GateServer> {
	const waiting: Array<() => void> = [];
	const arrivals: string[] = [];
	const service = await startStubService(async ({ path }) => {
		arrivals.push(path);
		await new Promise<void>((release) => {
			waiting.push(release);
			// Released in reverse order of arrival, so that output order must come from the node.
			if (waiting.length >= GATE)
				waiting
					.splice(0)
					.reverse()
					.forEach((next) => next());
		});
		const answer: StubAnswer = {
			status: 200,
			json: { id: decodeURIComponent(path.split('/')[2] ?? '') },
		};
		return answer;
	});
	return { url: service.url, arrivals, close: async () => await service.close() };
}

describe('items in flight', () => {
	let gate: GateServer;
	beforeEach(async () => (gate = await startGateServer()));
	afterEach(async () => await gate.close());

	it('sends the reads of a run together, and outputs them in input order', async () => {
		const companies = ['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8'];
		const items = await runPartnerPayroll(
			{ resource: 'company', operation: 'get', companyId: '={{ $json.companyId }}' },
			{ partnerPayrollApi: { baseUrl: gate.url, accessToken: 'token', authServerUrl: '' } },
			{ items: companies.map((companyId) => ({ json: { companyId } })) },
		);
		expect(items.map((item) => [item.json.id, item.pairedItem])).toEqual(
			companies.map((companyId, index) => [companyId, { item: index }]),
		);
		expect(gate.arrivals).toHaveLength(companies.length);
	});

	it('Batching (Request Options): never more items at once than a batch holds, outputs in input order', async () => {
		let open = 0;
		let mostOpen = 0;
		const service = await startStubService(async ({ path }) => {
			open++;
			mostOpen = Math.max(mostOpen, open);
			// Held for a moment, so that a batch's requests overlap; the bound below holds whatever the timing.
			await sleep(20);
			open--;
			return { status: 200, json: { id: decodeURIComponent(path.split('/')[2] ?? '') } };
		});
		try {
			const companies = ['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7'];
			const items = await runPartnerPayroll(
				{
					resource: 'company',
					operation: 'get',
					companyId: '={{ $json.companyId }}',
					requestOptions: { batching: { batch: { batchSize: 3, batchInterval: 0 } } },
				},
				{ partnerPayrollApi: { baseUrl: service.url, accessToken: 'token', authServerUrl: '' } },
				{ items: companies.map((companyId) => ({ json: { companyId } })) },
			);
			expect(items.map((item) => item.json.id)).toEqual(companies);
			expect(mostOpen).toBeLessThanOrEqual(3);
		} finally {
			await service.close();
		}
	});
});
