import { createRunExecutionData } from 'n8n-workflow';

import { SandboxSession, failureOf, runPartnerPayroll, sha256 } from '../../support/fixtures';
import { startLoggingProxy } from '../../support/logging-proxy';
import { binaryBytes } from '../../support/n8n-harness';

// What every request of the package carries: the token to the API and the authorization server
// only, and the node's Request Options, for nested requests (token lookup, PDFs) too.

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());

const STATUS_PATH = '/api/v1/companies/FR1001/payroll-status';
const PAYMENT_FILE_PATH = '/api/v1/companies/FR1001/payment-files';
const getStatus = {
	resource: 'payroll',
	operation: 'getStatus',
	companyId: 'FR1001',
	month: '202610',
};
const paymentFile = { ...getStatus, operation: 'downloadPaymentFile' };

const credentialsOf = (token: string) =>
	[
		['Access Token', session.accessToken(token)],
		['OAuth2', session.oauth2(token)],
	] as const;

describe('redirects', () => {
	it.each([301, 302, 307])(
		'a %i to another origin is followed without the token (both credentials)',
		async (status) => {
			const token = await session.token('FR1001');
			for (const [, credentials] of credentialsOf(token)) {
				await session.injectFault({ path: STATUS_PATH, type: 'redirect', status, to: 'other' });
				const [item] = await runPartnerPayroll(getStatus, credentials);
				expect(item.json).toMatchObject({ companyId: 'FR1001', month: '202610' });
			}
			const storage = await session.storageRequests();
			expect(storage).toHaveLength(2);
			expect(storage.map((request) => request.authorization)).toEqual([null, null]);
		},
	);

	it('a payment file redirected to signed storage keeps every byte, and storage never sees the token', async () => {
		const token = await session.token('FR1001');
		await session.injectFault({
			path: PAYMENT_FILE_PATH,
			type: 'redirect',
			status: 302,
			to: 'other',
		});
		const [item] = await runPartnerPayroll(paymentFile, session.accessToken(token));
		expect(sha256(binaryBytes(item))).toBe(
			sha256(session.sandbox.seed.paymentFile('FR1001', '202610')),
		);
		expect((await session.storageRequests()).map((request) => request.authorization)).toEqual([
			null,
		]);
	});

	it('a PDF of Download Files redirected to another origin keeps every byte, without the token', async () => {
		const token = await session.token('GB3001');
		const listing = {
			resource: 'document',
			operation: 'getIncomeTaxDocuments',
			companyId: 'GB3001',
		};
		const [first] = await runPartnerPayroll(listing, session.accessToken(token));
		await session.injectFault({
			path: String(first.json.documentUrl),
			type: 'redirect',
			status: 307,
			to: 'other',
		});
		const items = await runPartnerPayroll(
			{ ...listing, options: { downloadFiles: true } },
			session.accessToken(token),
		);
		const [redirected] = items.filter((item) => item.json.documentId === first.json.documentId);
		expect(sha256(binaryBytes(redirected))).toBe(
			sha256(session.sandbox.seed.document('GB3001', String(first.json.documentId))),
		);
		expect((await session.storageRequests()).map((request) => request.authorization)).toEqual([
			null,
		]);
	});

	it('a redirect on the same origin keeps the token, so the API answers', async () => {
		const token = await session.token('FR1001');
		await session.injectFault({ path: STATUS_PATH, type: 'redirect', status: 302, to: 'same' });
		const [item] = await runPartnerPayroll(getStatus, session.accessToken(token));
		expect(item.json.status).toBeDefined();
	});

	it('the token lookup is never redirected: the token travels in its body', async () => {
		const token = await session.token('FR1001');
		await session.injectFault({
			path: '/oauth/introspect',
			type: 'redirect',
			status: 307,
			to: 'other',
		});
		const error = await failureOf(
			runPartnerPayroll({ ...getStatus, companyId: '' }, session.accessToken(token)),
		);
		expect(error.message).toBe('The authorization server answered with a redirect (HTTP 307)');
		expect(error.description).toContain('Authorization Server URL');
		expect(await session.storageRequests()).toHaveLength(0);
	});
});

describe('the token lookup (empty Company ID)', () => {
	it('an error of the authorization server names its address, not the company ID', async () => {
		const token = await session.token('FR1001');
		await session.injectFault({ path: '/oauth/introspect', type: 'status', status: 404 });
		const error = await failureOf(
			runPartnerPayroll({ ...getStatus, companyId: '' }, session.accessToken(token)),
		);
		expect(error.message).toBe('The authorization server answered HTTP 404 to the token lookup');
		expect(error.description).toContain('Authorization Server URL');
		expect(error.description).not.toContain('Check the company ID');
	});

	it('a failed lookup is not remembered: the next run of the node in the same execution tries again', async () => {
		const token = await session.token('FR1001');
		const execution = createRunExecutionData();
		await session.injectFault({ path: '/oauth/introspect', type: 'status', status: 400 });
		const parameters = { ...getStatus, companyId: '' };
		await failureOf(
			runPartnerPayroll(parameters, session.accessToken(token), { runExecutionData: execution }),
		);
		const [item] = await runPartnerPayroll(parameters, session.accessToken(token), {
			runExecutionData: execution,
		});
		expect(item.json.companyId).toBe('FR1001');
	});
});

describe("the node's Request Options reach every request", () => {
	it('Proxy: the listing, every PDF of Download Files and the token lookup pass through it', async () => {
		const proxy = await startLoggingProxy();
		try {
			const token = await session.token('GB3001');
			const items = await runPartnerPayroll(
				{
					resource: 'document',
					operation: 'getIncomeTaxDocuments',
					companyId: '',
					options: { downloadFiles: true },
					requestOptions: { proxy: proxy.url },
				},
				session.accessToken(token),
			);
			const proxied = proxy.requests().map((request) => new URL(request.url).pathname);
			expect(proxied).toContain('/oauth/introspect');
			expect(proxied).toContain('/api/v1/companies/GB3001/income-taxes-documents');
			for (const item of items)
				expect(proxied).toContain(`/api/v1${String(item.json.documentUrl)}`);
			expect(proxied).toHaveLength(2 + items.length);
		} finally {
			await proxy.close();
		}
	});
});
