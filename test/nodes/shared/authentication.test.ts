import type { IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import { authenticationField, readConnection } from '../../../nodes/shared/authentication';
import { apiRequest } from '../../../nodes/shared/transport';

// Review finding 7: with no `authentication` stored, the connection reads the credential the
// field's own default selects.

function contextWithoutAuthentication(kind: 'node' | 'trigger') {
	const asked: string[] = [];
	const getCredentials = async (type: string) => {
		asked.push(type);
		return { baseUrl: 'https://api.example.com', oauthTokenData: { access_token: 'dummy' } };
	};
	const context =
		kind === 'node'
			? {
					getInputData: () => [{ json: {} }],
					getNodeParameter: (_name: string, _index: number, fallback: unknown) => fallback,
					getCredentials,
				}
			: { getNodeParameter: (_name: string, fallback: unknown) => fallback, getCredentials };
	return { context: context as unknown as IExecuteFunctions | IPollFunctions, asked };
}

describe('readConnection', () => {
	it.each(['node', 'trigger'] as const)(
		'in a %s, falls back to the Authentication field default (OAuth2)',
		async (kind) => {
			const { context, asked } = contextWithoutAuthentication(kind);
			await readConnection(context, { rateLimitAdvice: '' });
			expect(authenticationField.default).toBe('oAuth2');
			expect(asked).toEqual(['partnerPayrollOAuth2Api']);
		},
	);
});

describe('readConnection with the Partner API credential', () => {
	const tokens = { FR1001: 'token-of-fr1001-abc', FR1002: 'token-of-fr1002-def' };
	function partnerContext() {
		const sent: Array<{ url: string; headers: Record<string, unknown>; alreadyRead: unknown }> = [];
		const credentials = {
			baseUrl: 'https://api.example.com/',
			authServerUrl: 'https://auth.example.com',
			clientId: 'partner-app',
			companies: {
				company: [
					{ companyId: 'FR1001', label: 'Boulangerie', accessToken: `FR1001:${tokens.FR1001}` },
					// A token moved to another row by the editor: bound to FR1001, in FR1002's row.
					{ companyId: 'FR1002', label: '', accessToken: `FR1001:${tokens.FR1002}` },
				],
			},
		};
		const context = {
			getInputData: () => [{ json: {} }],
			getNodeParameter: () => 'partnerApi',
			getCredentials: async () => credentials,
			getNode: () => ({ credentials: { partnerPayrollPartnerApi: { id: '7', name: 'Clients' } } }),
			helpers: {
				httpRequestWithAuthentication: async (
					_type: string,
					options: { url: string; headers: Record<string, unknown> },
					alreadyRead: { credentialsDecrypted?: { data?: unknown } } | undefined,
				) => {
					sent.push({ ...options, alreadyRead: alreadyRead?.credentialsDecrypted?.data });
					return { statusCode: 200, headers: {}, body: {} };
				},
			},
		};
		return { context: context as unknown as IExecuteFunctions, sent };
	}

	it('gives requests the companies without their tokens, and each row its problem', async () => {
		const { context } = partnerContext();
		const connection = await readConnection(context, { rateLimitAdvice: '' });
		const seen = JSON.stringify({ ...connection, partner: connection.partner?.companies });
		for (const token of Object.values(tokens)) expect(seen).not.toContain(token);
		expect(connection.partner?.companies.map(({ companyId }) => companyId)).toEqual([
			'FR1001',
			'FR1002',
		]);
		expect(connection.partner?.problemOf('FR1001')).toBeUndefined();
		expect(connection.partner?.problemOf('FR1002')).toMatch(/holds the token of company FR1001/);
		expect(connection.partner?.problemOf('GB3001')).toMatch(
			/Company GB3001 is not in the credential's company list \(2 companies\)/,
		);
	});

	it("names each request's company to the credential, and asCompany its own on every request", async () => {
		const { context, sent } = partnerContext();
		const connection = await readConnection(context, { rateLimitAdvice: '' });
		await apiRequest(context, connection, {
			method: 'GET',
			companyId: 'FR1001',
			path: '/payroll-status',
		});
		const company = connection.partner!.asCompany('FR1001');
		expect(company.accessToken).toBe(tokens.FR1001);
		await apiRequest(context, company, {
			method: 'POST',
			path: 'https://auth.example.com/introspect',
			readOnly: true,
			toAuthorizationServer: true,
		});
		expect(sent.map((options) => options.url)).toEqual([
			'/companies/FR1001/payroll-status',
			'https://auth.example.com/introspect',
		]);
		expect(sent.map((options) => options.headers['x-partner-payroll-company'])).toEqual([
			'FR1001',
			'FR1001',
		]);
		// n8n gets the credential as read once, for every request: it does not read it again.
		const read = await context.getCredentials('partnerPayrollPartnerApi');
		expect(sent.map((options) => options.alreadyRead)).toEqual([read, read]);
		expect(() => connection.partner!.asCompany('FR1002')).toThrow(
			/holds the token of company FR1001/,
		);
	});
});
