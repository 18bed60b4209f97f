import { SandboxSession, runPartnerPayroll } from '../../../../support/fixtures';

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());

describe('company', () => {
	it('get: one item with every field of the company record', async () => {
		const token = await session.token('FR1001');
		const [item, ...rest] = await runPartnerPayroll(
			{ resource: 'company', operation: 'get', companyId: 'FR1001' },
			session.accessToken(token),
		);
		expect(rest).toHaveLength(0);
		expect(item.json).toMatchObject({
			id: 'FR1001',
			name: 'Boulangerie Électrique SAS',
			country: 'FR',
			identificationNumber: expect.any(String),
			address: "12 rue de l'Épée",
			city: 'Lyon',
			postalCode: '69002',
			nbActiveContracts: expect.any(Number),
		});
	});

	it('getConnection: the company, application and scopes of the credential, without a request to the API', async () => {
		const token = await session.token('ES2001', ['payment-files:read', 'accounting:read']);
		await session.clearRequests();
		const [item] = await runPartnerPayroll(
			{ resource: 'company', operation: 'getConnection' },
			session.oauth2(token),
		);
		expect(item.json).toEqual({
			active: true,
			companyId: 'ES2001',
			clientId: 'n8n-local',
			scopes: ['payment-files:read', 'accounting:read'],
		});
		const requests = await session.requests();
		expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			'POST /oauth/introspect',
		]);
		expect(JSON.stringify(item)).not.toContain(token);
	});

	it('getConnection: a revoked token is the one revoked-token error', async () => {
		const token = await session.token('FR1001');
		await session.control('POST', '/tokens/revoke', { token });
		await expect(
			runPartnerPayroll({ resource: 'company', operation: 'getConnection' }, session.oauth2(token)),
		).rejects.toThrow(/^The access token is invalid or has been revoked$/);
	});

	it('getFrench: keeps the deprecated siren as the API returns it', async () => {
		const token = await session.token('FR1001');
		const [item] = await runPartnerPayroll(
			{ resource: 'company', operation: 'getFrench', companyId: 'FR1001' },
			session.accessToken(token),
		);
		expect(item.json).toMatchObject({ id: 'FR1001', siren: expect.stringMatching(/^\d{9}$/) });
	});

	it('getFrench on a UK company: the service error and the country the operation serves', async () => {
		const token = await session.token('GB3001');
		await expect(
			runPartnerPayroll(
				{ resource: 'company', operation: 'getFrench', companyId: 'GB3001' },
				session.accessToken(token),
			),
		).rejects.toMatchObject({
			httpCode: '404',
			message: expect.stringMatching(/^Not found: /),
			description: expect.stringContaining('serves companies in France (FR) only'),
		});
	});

	it('empty Company ID: the token company, found by one introspection for many items', async () => {
		const token = await session.token('ES2001');
		await session.clearRequests();
		const items = await runPartnerPayroll(
			{ resource: 'company', operation: 'get', companyId: '' },
			session.accessToken(token),
			{ items: [{ json: {} }, { json: {} }, { json: {} }, { json: {} }] },
		);
		expect(items.map((item) => item.json.id)).toEqual(['ES2001', 'ES2001', 'ES2001', 'ES2001']);
		const paths = (await session.requests()).map((request) => request.path);
		expect(paths.filter((path) => path.endsWith('/introspect'))).toHaveLength(1);
		expect(paths.filter((path) => path.endsWith('/companies/ES2001'))).toHaveLength(4);
	});

	it('a failed token lookup is not remembered: the next item looks the company up again', async () => {
		const token = await session.token('ES2001');
		await session.injectFault({ path: '/oauth/introspect', type: 'status', status: 400, count: 1 });
		await session.clearRequests();
		const items = await runPartnerPayroll(
			{
				resource: 'company',
				operation: 'get',
				companyId: '',
				requestOptions: { batching: { batch: { batchSize: 1, batchInterval: 0 } } },
			},
			session.accessToken(token),
			{ items: [{ json: {} }, { json: {} }], continueOnFail: true },
		);
		expect(items.map((item) => item.json.error ?? item.json.id)).toEqual([
			'The authorization server answered HTTP 400 to the token lookup',
			'ES2001',
		]);
		const paths = (await session.requests()).map((request) => request.path);
		expect(paths.filter((path) => path.endsWith('/introspect'))).toHaveLength(2);
	});

	it('empty Company ID without an authorization server: a clear error, no request sent', async () => {
		const token = await session.token('ES2001');
		await session.clearRequests();
		await expect(
			runPartnerPayroll(
				{ resource: 'company', operation: 'get' },
				session.accessToken(token, { authServer: false }),
			),
		).rejects.toThrow('Company ID is empty and the credential has no Authorization Server URL');
		expect(await session.requests()).toHaveLength(0);
	});

	it('an explicit Company ID is sent URL-encoded as one path segment', async () => {
		const token = await session.token('FR1001');
		await session.clearRequests();
		await expect(
			runPartnerPayroll(
				{ resource: 'company', operation: 'get', companyId: 'FR 1001?x#y' },
				session.accessToken(token),
			),
		).rejects.toMatchObject({ httpCode: '404' });
		const [request] = await session.requests();
		expect(request.path).toBe('/api/v1/companies/FR%201001%3Fx%23y');
	});

	it.each([
		['FR1001/../GB3001'],
		['..'],
		['.'],
		['%2E%2E'],
		['FR1001%2FGB3001'],
		['FR1001%5CGB3001'],
		['FR1001\\..\\admin'],
		['FR\u00001001'],
	])('refuses the Company ID %p before any request, naming the field', async (companyId) => {
		const token = await session.token('FR1001');
		await session.clearRequests();
		await expect(
			runPartnerPayroll(
				{ resource: 'company', operation: 'get', companyId },
				session.accessToken(token),
			),
		).rejects.toThrow(/^Company ID must be a single id/);
		expect(await session.requests()).toHaveLength(0);
	});

	it.each([
		['with a trailing slash', (base: string) => `${base}/`],
		['without one', (base: string) => base],
	])('works with a base URL that has a path prefix, %s', async (_label, baseUrl) => {
		const token = await session.token('GB3001');
		const [item] = await runPartnerPayroll(
			{ resource: 'company', operation: 'get', companyId: 'GB3001' },
			session.accessToken(token, { baseUrl: baseUrl(session.sandbox.apiBaseUrl) }),
		);
		expect(item.json.name).toBe('Thistle & Rose Ltd');
	});

	it('works through the OAuth2 credential', async () => {
		const token = await session.token('GB3001');
		const [item] = await runPartnerPayroll(
			{ resource: 'company', operation: 'get' },
			session.oauth2(token),
		);
		expect(item.json.id).toBe('GB3001');
	});
});
