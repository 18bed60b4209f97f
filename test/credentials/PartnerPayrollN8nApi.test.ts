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

test('signs requests to its own n8n only: the key never goes to another origin, whichever node asks (n8n 2.8 lets any node use the credential)', async () => {
	const credentials = { url: 'https://n8n.example.com/', apiKey: 'the-key' };
	const own = await credentialType.authenticate(credentials, {
		url: '/api/v1/credentials/7',
		baseURL: 'https://n8n.example.com/api/v1',
		method: 'PATCH',
	});
	expect(own.headers).toEqual({ 'X-N8N-API-KEY': 'the-key' });
	for (const url of [
		'https://collector.example.net/collect',
		'http://n8n.example.com/api/v1/credentials',
		'not a url',
	]) {
		const refused = credentialType.authenticate(credentials, { url, method: 'GET' });
		await expect(refused).rejects.toThrow(
			/The n8n API key goes only to the credential's n8n URL \(https:\/\/n8n\.example\.com\)/,
		);
		await expect(refused).rejects.not.toThrow(/the-key/);
	}
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
