import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { runPartnerPayroll } from '../../support/fixtures';

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
	const server = http.createServer((req, res) => {
		arrivals.push(String(req.url));
		const answer = () => {
			const companyId = decodeURIComponent(String(req.url).split('/')[2] ?? '');
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ id: companyId }));
		};
		waiting.push(answer);
		// Answered in reverse order of arrival, so that output order must come from the node.
		if (waiting.length >= GATE)
			waiting
				.splice(0)
				.reverse()
				.forEach((release) => release());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		arrivals,
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
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
});
