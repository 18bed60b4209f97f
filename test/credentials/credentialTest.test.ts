import { PartnerPayrollApi } from '../../credentials/PartnerPayrollApi.credentials';
import { PartnerPayrollOAuth2Api } from '../../credentials/PartnerPayrollOAuth2Api.credentials';
import { testCredential } from '../support/credential-tester';
import { SandboxSession } from '../support/fixtures';

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

	it('without an authorization server: a cheap API call accepts a good token', async () => {
		const token = await session.token('GB3001');
		await session.clearRequests();
		const result = await testCredential(
			accessTokenType,
			session.accessToken(token, { authServer: false }).partnerPayrollApi,
		);
		expect(result.status).toBe('OK');
		const [request] = await session.requests();
		expect(request).toMatchObject({ method: 'GET', path: '/api/v1/companies/credential-test' });
	});

	it('without an authorization server: a bad token fails', async () => {
		const result = await testCredential(
			accessTokenType,
			session.accessToken('not-a-real-token-dummy', { authServer: false }).partnerPayrollApi,
		);
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringContaining('The token was refused (401)'),
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

describe('OAuth2 credential description', () => {
	const property = (name: string) =>
		oauth2Type.properties.find((candidate) => candidate.name === name)!;

	it('derives the authorize and token addresses from the authorization server URL', () => {
		expect(property('authUrl').default).toMatch(/^=.*authServerUrl.*\/authorize$/);
		expect(property('accessTokenUrl').default).toMatch(/^=.*authServerUrl.*\/token$/);
	});

	it('requests the five scopes by default, space-separated, with client credentials in the body', () => {
		expect(property('scopes').default).toEqual([
			'accounting:read',
			'health-insurance:read',
			'payment-files:read',
			'contracts:payslips:read',
			'pension:read',
		]);
		expect(property('scope').default).toBe('={{$self["scopes"].join(" ")}}');
		expect(property('authentication').default).toBe('body');
		expect(property('grantType').default).toBe('authorizationCode');
	});
});
