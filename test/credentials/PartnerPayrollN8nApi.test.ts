import { randomUUID } from 'crypto';

import { PartnerPayrollN8nApi } from '../../credentials/PartnerPayrollN8nApi.credentials';
import { testCredential } from '../support/credential-tester';
import { FakeN8nApi, N8N_API_KEY } from '../nodes/PartnerPayrollConnectTrigger/connectHarness';

// The n8n API credential's Test, against a fake of n8n's public API over HTTP.

const credentialType = new PartnerPayrollN8nApi();
const n8n = new FakeN8nApi();
beforeAll(async () => await n8n.start());
afterAll(async () => await n8n.stop());
beforeEach(() => {
	n8n.enabled = true;
	n8n.requests.length = 0;
});

test("is restricted to the package's nodes, as the Partner API credential is (n8n from n8n-core 2.25 refuses it to n8n's HTTP Request node, which could send the key anywhere)", () => {
	expect(credentialType).toHaveProperty('restrictToSupportedNodes', true);
});

test('a key that n8n accepts: OK, after one GET /api/v1/credentials?limit=1 carrying the key', async () => {
	const result = await testCredential(credentialType, { url: `${n8n.url}/`, apiKey: N8N_API_KEY });
	expect(result.status).toBe('OK');
	expect(n8n.requests).toEqual([{ method: 'GET', path: '/api/v1/credentials' }]);
});

test("a key that n8n refuses: the Test fails with n8n's message for a 401", async () => {
	const result = await testCredential(credentialType, { url: n8n.url, apiKey: randomUUID() });
	expect(result).toEqual({
		status: 'Error',
		message: 'Authorization failed - please check your credentials',
	});
});

test('the public API disabled (404): the Test fails', async () => {
	n8n.enabled = false;
	const result = await testCredential(credentialType, { url: n8n.url, apiKey: N8N_API_KEY });
	expect(result).toEqual({
		status: 'Error',
		message: 'The resource you are requesting could not be found',
	});
});
