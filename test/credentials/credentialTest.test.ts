import { PartnerPayrollApi } from '../../credentials/PartnerPayrollApi.credentials';
import { PartnerPayrollOAuth2Api } from '../../credentials/PartnerPayrollOAuth2Api.credentials';
import { testCredential } from '../support/credential-tester';
import { ALL_SCOPES, SandboxSession, partnerPayroll } from '../support/fixtures';
import { evaluateExpression } from '../support/n8n-harness';
import { startJsonAnswerServer } from '../support/network';

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());

const accessTokenType = new PartnerPayrollApi();
const oauth2Type = new PartnerPayrollOAuth2Api();

describe('Partner Payroll Access Token API: Test', () => {
	it('passes by introspection, sending the token in the header and the body', async () => {
		const token = await session.token('FR1001');
		await session.clearRequests();
		const result = await testCredential(
			accessTokenType,
			session.accessToken(token).partnerPayrollApi,
		);
		expect(result.status).toBe('OK');
		const [request] = await session.requests();
		expect(request).toMatchObject({ method: 'POST', path: '/oauth/introspect', status: 200 });
		expect(request.authorization).toBe(`Bearer …${token.slice(-4)}`);
	});

	it('fails with a clear message for a revoked token', async () => {
		const token = await session.token('FR1001');
		await session.control('POST', '/tokens/revoke', { token });
		const result = await testCredential(
			accessTokenType,
			session.accessToken(token).partnerPayrollApi,
		);
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringContaining('The token is not active'),
		});
	});
});

describe('Partner Payroll OAuth2 API: Test', () => {
	it('passes for the connected token', async () => {
		const token = await session.token('ES2001');
		const result = await testCredential(oauth2Type, session.oauth2(token).partnerPayrollOAuth2Api);
		expect(result.status).toBe('OK');
	});

	it('fails once the token was replaced by a newer one (one token per company and client)', async () => {
		const token = await session.token('ES2001');
		await session.token('ES2001');
		const result = await testCredential(oauth2Type, session.oauth2(token).partnerPayrollOAuth2Api);
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringContaining('The token is not active'),
		});
	});
});

// Each answer of the introspection endpoint a credential test can meet, for both credentials:
// only a 2xx that says the token is active passes, and each failure names its likely cause.
const credentials = [
	[
		'Access Token',
		accessTokenType,
		(token: string) => session.accessToken(token).partnerPayrollApi,
	],
	['OAuth2', oauth2Type, (token: string) => session.oauth2(token).partnerPayrollOAuth2Api],
] as const;

describe.each(credentials)('%s credential Test, answer by answer', (_name, type, dataFor) => {
	it.each([
		[400, /refused the introspection request \(400\).*Authorization Server URL/],
		[401, /token was refused \(401\)/],
		[403, /\(403\).*scope/],
		[404, /Nothing answers at the Authorization Server URL \(404\)/],
		// The real 429 body has no `code` (real-service facts): any answer without `active` fails.
		[429, /did not answer like an introspection endpoint/],
		[500, /authorization server failed \(500\)/],
		[502, /authorization server failed \(502\)/],
		[503, /authorization server failed \(503\)/],
		[504, /authorization server failed \(504\)/],
	])('HTTP %i fails: %p', async (status, message) => {
		const token = await session.token('FR1001');
		await session.injectFault({ path: '/oauth/introspect', type: 'status', status });
		const result = await testCredential(type, dataFor(token));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(message);
	});

	it('an HTML page with status 200 fails (not an introspection answer)', async () => {
		const token = await session.token('FR1001');
		await session.injectFault({ path: '/oauth/introspect', type: 'malformed' });
		const result = await testCredential(type, dataFor(token));
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringContaining('did not answer like an introspection endpoint'),
		});
	});

	it('a proxy HTML error page (502) fails: not an introspection answer', async () => {
		const token = await session.token('FR1001');
		await session.injectFault({
			path: '/oauth/introspect',
			type: 'status',
			status: 502,
			html: true,
		});
		const result = await testCredential(type, dataFor(token));
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringContaining('did not answer like an introspection endpoint'),
		});
	});

	it('a wrong Authorization Server URL (the API base URL) fails with 404', async () => {
		const token = await session.token('FR1001');
		const data = { ...dataFor(token), authServerUrl: session.sandbox.apiBaseUrl };
		const result = await testCredential(type, data);
		expect(result.message).toMatch(/\(404\)/);
	});

	it('active: false fails', async () => {
		const token = await session.token('FR1001');
		await session.control('POST', '/tokens/revoke', { token });
		const result = await testCredential(type, dataFor(token));
		expect(result.message).toMatch(/The token is not active/);
	});

	it('nothing listening fails with the connection error', async () => {
		const token = await session.token('FR1001');
		const data = { ...dataFor(token), authServerUrl: 'http://127.0.0.1:9/oauth' };
		const result = await testCredential(type, data);
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(/ECONNREFUSED|refused/),
		});
	});

	it('sends one POST with the token in the header and the body, never a GET with a body', async () => {
		const token = await session.token('FR1001');
		await session.clearRequests();
		expect((await testCredential(type, dataFor(token))).status).toBe('OK');
		const requests = await session.requests();
		expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			'POST /oauth/introspect',
		]);
	});
});

describe('OAuth2 credential description', () => {
	const property = (name: string) =>
		oauth2Type.properties.find((candidate) => candidate.name === name)!;

	it('derives the authorize and token addresses from the authorization server URL', () => {
		expect(property('authUrl').default).toMatch(/^=.*authServerUrl.*\/authorize$/);
		expect(property('accessTokenUrl').default).toMatch(/^=.*authServerUrl.*\/token$/);
	});

	/** The `scope` n8n sends at Connect, evaluated as n8n evaluates a credential's expressions. */
	const scopeSentFor = (scopes: string[] | undefined) =>
		evaluateExpression(partnerPayroll, property('scope').default as string, { self: { scopes } });

	it('a new credential selects no scope, and Connect then asks for all five (never for none)', () => {
		expect(property('scopes').default).toEqual([]);
		expect(String(scopeSentFor([])).split(' ').sort()).toEqual([...ALL_SCOPES].sort());
		expect(String(scopeSentFor(undefined)).split(' ').sort()).toEqual([...ALL_SCOPES].sort());
	});

	it('a selection is sent as it is, space-separated, with client credentials in the body', () => {
		expect(scopeSentFor(['payment-files:read', 'pension:read'])).toBe(
			'payment-files:read pension:read',
		);
		expect(property('authentication').default).toBe('body');
		expect(property('grantType').default).toBe('authorizationCode');
	});
});

describe('the Test names the company and the scopes of the credential', () => {
	it('Access Token: passes naming the company and the granted scopes', async () => {
		const token = await session.token('FR1002', ['payment-files:read']);
		const result = await testCredential(
			accessTokenType,
			session.accessToken(token).partnerPayrollApi,
		);
		expect(result).toEqual({
			status: 'OK',
			message: 'Connected to company FR1002 with the scopes payment-files:read',
		});
	});

	it('OAuth2 with no scope selected: a token without scopes fails, naming the missing ones', async () => {
		const token = await session.token('ES2001', []);
		const result = await testCredential(oauth2Type, {
			...session.oauth2(token).partnerPayrollOAuth2Api,
			scopes: [],
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^Connected to company ES2001, but the token lacks the scopes /);
		for (const scope of ALL_SCOPES) expect(result.message).toContain(scope);
		expect(result.message).toContain('(granted: none)');
	});

	it('OAuth2 with fewer scopes selected: passes when the token has them', async () => {
		const token = await session.token('FR1001', ['accounting:read']);
		const result = await testCredential(oauth2Type, {
			...session.oauth2(token).partnerPayrollOAuth2Api,
			scopes: ['accounting:read'],
		});
		expect(result).toEqual({
			status: 'OK',
			message: 'Connected to company FR1001 with the scopes accounting:read',
		});
	});

	it('never shows the token in its message', async () => {
		const token = await session.token('FR1001', []);
		const result = await testCredential(oauth2Type, session.oauth2(token).partnerPayrollOAuth2Api);
		expect(result.message).not.toContain(token);
	});
});

describe.each(credentials)(
	'%s credential Test, OAuth 2.0 error bodies (RFC 6749)',
	(_name, type, dataFor) => {
		it.each([
			['invalid_token', 401, /token was refused \(invalid_token\).*Reconnect/],
			[
				'invalid_request',
				400,
				/refused the introspection request \(invalid_request\).*Authorization Server URL/,
			],
			['invalid_client', 401, /does not accept the application \(invalid_client\)/],
		])(
			'{"error": "%s"} names the token or the request, not only the address',
			async (error, status, message) => {
				const server = await startJsonAnswerServer(status, { error });
				try {
					const data = { ...dataFor('any-token'), authServerUrl: server.url };
					const result = await testCredential(type, data);
					expect(result.status).toBe('Error');
					expect(result.message).toMatch(message);
				} finally {
					await server.close();
				}
			},
		);
	},
);
