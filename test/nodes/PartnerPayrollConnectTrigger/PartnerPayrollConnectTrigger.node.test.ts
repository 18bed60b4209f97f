import { randomUUID } from 'crypto';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { bindToBrowser } from '../../../nodes/PartnerPayrollConnectTrigger/helpers/browserBinding';
import {
	WARNINGS_PER_MINUTE,
	warnRefusal,
} from '../../../nodes/PartnerPayrollConnectTrigger/helpers/refusalLog';
import { signInvitation, signState, verifyState } from '../../../nodes/shared/linkSigning';
import { LEASE_MS, LIST_LOCK_TABLE_NAME, WRITE_WINDOW_MS } from '../../../nodes/shared/listLock';
import {
	ALL_SCOPES,
	DEFAULT_CLIENT,
	SandboxSession,
	runPartnerPayroll,
} from '../../support/fixtures';
import { pause } from '../../support/network';
import { startStubService } from '../../support/stub-service';
import {
	advanceWallClock,
	createTrigger,
	restoreClock,
	setClock,
} from '../PartnerPayrollTrigger/triggerHarness';
import {
	CONNECT_URL,
	ConnectWorkflow,
	Browser,
	FakeN8nApi,
	N8N_API_KEY,
	PARTNER_CREDENTIAL_ID,
	type ConnectAnswer,
} from './connectHarness';

// The connect link end to end against the sandbox over HTTP: the link, the provider's consent page
// (a company chosen per consent), the way back with a code, and the company's row written into the
// Partner API credential through a fake of n8n's public API.

/** The five scopes, in whatever order the service lists them. */
const EVERY_SCOPE = expect.arrayContaining(ALL_SCOPES) as string[];

const session = new SandboxSession();
const n8n = new FakeN8nApi();
let workflow: ConnectWorkflow;

beforeAll(async () => {
	await session.start({ generatedCompanies: 9 });
	// As in the provider's portal: the trigger's production URL is a redirect URI of the application.
	await session.control('POST', '/clients/redirect-uris', { redirectUri: CONNECT_URL });
	await n8n.start();
});
afterAll(async () => {
	restoreClock();
	await n8n.stop();
	await session.stop();
});
beforeEach(async () => {
	// Months the seed never completed: a connect names no month completed before it (see below).
	setClock('2026-06-15T12:00:00.000Z');
	await session.reset();
	n8n.enabled = true;
	n8n.afterPatch = undefined;
	n8n.credentials.clear();
	n8n.requests.length = 0;
	n8n.credentials.set(PARTNER_CREDENTIAL_ID, {
		name: 'Partner',
		type: 'partnerPayrollPartnerApi',
		data: partnerData(),
	});
	workflow = new ConnectWorkflow(n8n);
});

function partnerData(companies: IDataObject[] = []): ICredentialDataDecryptedObject {
	return {
		baseUrl: session.sandbox.apiBaseUrl,
		authServerUrl: session.sandbox.authServerUrl,
		clientId: DEFAULT_CLIENT.clientId,
		clientSecret: DEFAULT_CLIENT.clientSecret,
		companies: { company: companies },
	};
}

/** The administrator on the provider's consent page: picks the company and accepts. */
async function consent(location: string, companyId: string): Promise<Record<string, string>> {
	const url = new URL(location);
	url.searchParams.set('company_hint', companyId);
	const page = await (await fetch(url)).text();
	const form = new URLSearchParams();
	for (const [, name, value] of page.matchAll(
		/<input type="hidden" name="([^"]+)" value="([^"]*)">/g,
	)) {
		form.set(name, value.replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
	}
	expect(page).toMatch(new RegExp(`<option value="${companyId}" selected>`));
	form.set('company_id', companyId);
	form.set('decision', 'accept');
	const back = await fetch(`${session.sandbox.authServerUrl}/authorize`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		body: form.toString(),
		redirect: 'manual',
	});
	const redirect = new URL(String(back.headers.get('location')));
	expect(`${redirect.origin}${redirect.pathname}`).toBe(CONNECT_URL);
	return Object.fromEntries(redirect.searchParams);
}

/** The query of a redirect that points back at the trigger itself. */
function queryOfRedirect(answer: ConnectAnswer): Record<string, string> {
	const location = new URL(answer.headers.location);
	expect(`${location.origin}${location.pathname}`).toBe(CONNECT_URL);
	return Object.fromEntries(location.searchParams);
}

/** The node's credentials as n8n gives them: the Partner API credential read from n8n at every call. */
function nodeCredentials(apiKey: string = N8N_API_KEY) {
	// The harness names the node's credential `<type>-id`: the same stored credential under that id.
	n8n.credentials.set('partnerPayrollPartnerApi-id', n8n.credentials.get(PARTNER_CREDENTIAL_ID)!);
	const credentials = { partnerPayrollN8nApi: { url: n8n.url, apiKey } };
	Object.defineProperty(credentials, 'partnerPayrollPartnerApi', {
		enumerable: true,
		get: () => JSON.parse(JSON.stringify(n8n.credentials.get(PARTNER_CREDENTIAL_ID)!.data)),
	});
	return credentials as unknown as Record<string, ICredentialDataDecryptedObject>;
}

interface ConnectLinkItem {
	connectLink: string;
	label: string;
	companyId: string | null;
	expiresAt: string;
}

/** The partner's link for one client: Partner Credential → Create Connect Link of the Partner Payroll node. */
async function createConnectLink(
	label: string,
	options: { companyId?: string; lifetimeDays?: number; connectLink?: string } = {},
): Promise<ConnectLinkItem> {
	const [item] = await runPartnerPayroll(
		{
			resource: 'partnerCredential',
			operation: 'createConnectLink',
			connectLink: options.connectLink ?? CONNECT_URL,
			label,
			expectedCompanyId: options.companyId ?? '',
			lifetimeDays: options.lifetimeDays ?? 7,
		},
		nodeCredentials(),
	);
	return item.json as unknown as ConnectLinkItem;
}

/** The query the trigger receives when the administrator opens the link. */
const queryOfLink = (link: string) => Object.fromEntries(new URL(link).searchParams);

/** The query of the partner's invitation for this label (and company). */
async function invitation(label: string, companyId?: string) {
	return queryOfLink((await createConnectLink(label, { companyId })).connectLink);
}

/** The stored connect link secret, and the signer of the link's states as the trigger signs them. */
function linkSigner() {
	const key = String(n8n.credentials.get(PARTNER_CREDENTIAL_ID)!.data.connectLinkSecret);
	return { key, linkUrl: CONNECT_URL };
}

/**
 * The connect link opened (with the partner's invitation for the label, or, without a label, the open
 * link with Allow Any Company on), the consent given, the way back followed, and, when it redirects to
 * the "connected" page, that page too: every answer of the trigger.
 */
async function connectCompany(companyId: string, label?: string) {
	if (!label) workflow.parameters = { ...workflow.parameters, allowAnyCompany: true };
	const link = await workflow.open(label ? await invitation(label) : {});
	const back = await consent(link.headers.location, companyId);
	const answer = await workflow.open(back);
	const page = answer.status === 302 ? await workflow.open(queryOfRedirect(answer)) : answer;
	return { link, back, answer, page };
}

const tokenOfRow = (row: { companyId: string; accessToken: string }) =>
	row.accessToken.slice(row.companyId.length + 1);

async function getStatus(companyId: string) {
	return await runPartnerPayroll(
		{ resource: 'payroll', operation: 'getStatus', companyId, month: '202610' },
		{ partnerPayrollPartnerApi: n8n.credentials.get(PARTNER_CREDENTIAL_ID)!.data },
	);
}

/** Nothing secret in what the administrator sees or what the execution holds. */
function expectNoSecret(answer: ConnectAnswer, secrets: string[]) {
	const shown = `${answer.body} ${JSON.stringify(answer.items ?? null)} ${answer.logs.join(' ')}`;
	for (const secret of secrets.filter(Boolean)) expect(shown).not.toContain(secret);
}

describe('the connect link', () => {
	test('answers 302 to the consent page with the client, its own URL, all five scopes, a signed state and its cookie', async () => {
		const answer = await workflow.open(await invitation('Boulangerie Martin', 'FR5001'));
		expect(answer.status).toBe(302);
		expect(answer.items).toBeUndefined();
		expect(answer.headers['cache-control']).toBe('no-store');
		const location = new URL(answer.headers.location);
		expect(`${location.origin}${location.pathname}`).toBe(
			`${session.sandbox.authServerUrl}/authorize`,
		);
		expect(location.searchParams.get('response_type')).toBe('code');
		expect(location.searchParams.get('client_id')).toBe(DEFAULT_CLIENT.clientId);
		expect(location.searchParams.get('redirect_uri')).toBe(CONNECT_URL);
		expect(location.searchParams.get('scope')?.split(' ').sort()).toEqual([...ALL_SCOPES].sort());
		const state = String(location.searchParams.get('state'));
		const verified = verifyState(state, linkSigner());
		expect(verified).toEqual({
			content: expect.objectContaining({
				typ: 'connect-state',
				invitee: { label: 'Boulangerie Martin', companyId: 'FR5001' },
			}),
		});
		if (!('content' in verified)) throw new Error('not verified');
		// The browser keeps the state's nonce, on the link's own path only.
		expect(answer.headers['set-cookie']).toBe(
			`pp_connect=${verified.content.nonce}; Path=${new URL(CONNECT_URL).pathname}; Max-Age=900; HttpOnly; SameSite=Lax`,
		);
		// Not signed with the client secret, nor valid for another link of the same key.
		expect(
			verifyState(state, { key: DEFAULT_CLIENT.clientSecret, linkUrl: CONNECT_URL }),
		).toHaveProperty('problem');
		expect(
			verifyState(state, { ...linkSigner(), linkUrl: `${CONNECT_URL.slice(0, -7)}other/connect` }),
		).toHaveProperty('problem');
	});

	test('Scopes: the link asks for the selected scopes only, and the item lists what was granted', async () => {
		workflow.parameters = { scopes: ['payment-files:read', 'accounting:read'] };
		const link = await workflow.open(await invitation('Two Scopes'));
		expect(new URL(link.headers.location).searchParams.get('scope')).toBe(
			'payment-files:read accounting:read',
		);
		const { answer } = await connectCompany('FR5003', 'Two Scopes');
		expect(answer.items?.[0].scopes).toEqual(['payment-files:read', 'accounting:read']);
	});

	test('a label that is not short text is refused by Create Connect Link', async () => {
		const message = await createConnectLink('x'.repeat(101)).then(
			() => undefined,
			(error: Error) => error.message,
		);
		expect(message).toContain('1 to 100 characters');
	});

	test.each([
		['a bidi override', 'Boulangerie\u202Eecnarussa'],
		['a zero-width space', 'Boulan\u200Bgerie'],
		['a C1 control', 'Boulangerie\u0085'],
		['a private-use character', 'Boulangerie\uE000'],
		['a line separator', 'Boulangerie\u2028Martin'],
	])('a label with %s is refused by Create Connect Link', async (_case, label) => {
		const message = await createConnectLink(label).then(
			() => undefined,
			(error: Error) => error.message,
		);
		expect(message).toContain('without control or invisible characters');
	});

	test('a label typed with combining accents is signed in its composed form', async () => {
		const link = await createConnectLink('Cafe\u0301 Martin');
		expect(link.label).toBe('Caf\u00e9 Martin');
		const answer = await workflow.open(queryOfLink(link.connectLink));
		expect(answer.status).toBe(302);
		const state = new URL(String(answer.headers.location)).searchParams.get('state') ?? '';
		const payload = JSON.parse(Buffer.from(state.split('.')[0], 'base64url').toString());
		expect(payload.invitee.label).toBe('Caf\u00e9 Martin');
	});
});

describe('connecting companies', () => {
	test('three companies in a row: three rows, each with its own token, each serving its company', async () => {
		const companies = [
			['FR5001', 'Boulangerie Martin'],
			['ES6001', 'Taller <Ruiz> & Hijos'],
			['GB7001', ''],
		];
		const answers = [];
		for (const [companyId, label] of companies)
			answers.push(await connectCompany(companyId, label));

		expect(answers.map(({ answer }) => answer.items)).toEqual([
			[
				{
					connected: true,
					companyId: 'FR5001',
					label: 'Boulangerie Martin',
					scopes: EVERY_SCOPE,
					replaced: false,
				},
			],
			[
				{
					connected: true,
					companyId: 'ES6001',
					label: 'Taller <Ruiz> & Hijos',
					scopes: EVERY_SCOPE,
					replaced: false,
				},
			],
			[
				{
					connected: true,
					companyId: 'GB7001',
					label: 'GB7001',
					scopes: EVERY_SCOPE,
					replaced: false,
				},
			],
		]);
		// The way back redirects to the "connected" page, which starts nothing and holds no code.
		for (const { answer, page } of answers) {
			expect(answer.status).toBe(302);
			expect(answer.headers['cache-control']).toBe('no-store');
			expect(Object.keys(queryOfRedirect(answer))).toEqual(['connected']);
			expect(page.items).toBeUndefined();
		}
		const [first, second, third] = answers.map(({ page }) => page);
		expect(first.status).toBe(200);
		expect(first.headers['cache-control']).toBe('no-store');
		expect(first.headers['content-type']).toMatch(/^text\/html/);
		expect(first.body).toContain('Connected: Boulangerie Martin (company FR5001)');
		expect(second.body).toContain('Connected: Taller &lt;Ruiz&gt; &amp; Hijos (company ES6001)');
		expect(second.body).not.toContain('<Ruiz>');
		expect(third.body).toContain('Connected: GB7001');

		const rows = n8n.companies();
		expect(rows.map((row) => [row.companyId, row.label])).toEqual([
			['FR5001', 'Boulangerie Martin'],
			['ES6001', 'Taller <Ruiz> & Hijos'],
			['GB7001', 'GB7001'],
		]);
		for (const row of rows) expect(row.accessToken.startsWith(`${row.companyId}:sbx_`)).toBe(true);
		expect(new Set(rows.map(tokenOfRow)).size).toBe(3);

		await session.clearRequests();
		for (const [companyId] of companies) {
			const [item] = await getStatus(companyId);
			expect(item.json).toMatchObject({ companyId, month: '202610' });
		}
		const apiCalls = (await session.requests()).filter((request) =>
			request.path.startsWith('/api/'),
		);
		expect(
			apiCalls.map((request) => [
				/\/companies\/([^/]+)/.exec(request.path)?.[1],
				request.tokenCompanyId,
			]),
		).toEqual(companies.map(([companyId]) => [companyId, companyId]));

		// Never the code, the state, the token or the client secret in a page, an item or a log line.
		for (const [index, { link, back, answer, page }] of answers.entries()) {
			const secrets = [back.code, back.state, tokenOfRow(rows[index]), DEFAULT_CLIENT.clientSecret];
			expectNoSecret(answer, secrets);
			expectNoSecret(page, secrets);
			expectNoSecret(link, [DEFAULT_CLIENT.clientSecret]);
		}
	});

	test('reconnecting a company replaces its token in place and keeps its label, even with an invitation of another label', async () => {
		await connectCompany('FR5001', 'Boulangerie Martin');
		await connectCompany('GB7001', 'Tea Shop');
		const before = tokenOfRow(n8n.companies()[0]);

		const { answer, page } = await connectCompany('FR5001', 'Garage Dupont');
		expect(answer.items).toEqual([
			{
				connected: true,
				companyId: 'FR5001',
				label: 'Boulangerie Martin',
				scopes: EVERY_SCOPE,
				replaced: true,
			},
		]);
		expect(page.body).toContain('Connected: Boulangerie Martin (company FR5001)');
		const rows = n8n.companies();
		expect(rows.map((row) => [row.companyId, row.label])).toEqual([
			['FR5001', 'Boulangerie Martin'],
			['GB7001', 'Tea Shop'],
		]);
		expect(tokenOfRow(rows[0])).not.toBe(before);
		// The service replaced the previous token: only the new one works.
		const introspect = async (token: string) =>
			(await (
				await fetch(`${session.sandbox.authServerUrl}/introspect`, {
					method: 'POST',
					headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
					body: JSON.stringify({ token }),
				})
			).json()) as { active: boolean };
		expect(await introspect(before)).toEqual({ active: false });
		expect((await getStatus('FR5001'))[0].json).toMatchObject({ companyId: 'FR5001' });
	});

	test('two connects at the same moment in one n8n process: both companies end up in the list', async () => {
		// Two administrators, each in their own browser.
		const browsers = [new Browser(), new Browser()];
		const invitations = [await invitation('One'), await invitation('Two')];
		const links = await Promise.all(
			browsers.map(async (browser, index) => await workflow.open(invitations[index], browser)),
		);
		const backs = [
			await consent(links[0].headers.location, 'FR5002'),
			await consent(links[1].headers.location, 'ES6002'),
		];
		const answers = await Promise.all(
			backs.map(async (back, index) => await workflow.open(back, browsers[index])),
		);
		expect(answers.map((answer) => answer.items?.[0]?.connected)).toEqual([true, true]);
		expect(
			n8n
				.companies()
				.map((row) => row.companyId)
				.sort(),
		).toEqual(['ES6002', 'FR5002']);
		for (const companyId of ['FR5002', 'ES6002']) {
			expect((await getStatus(companyId))[0].json).toMatchObject({ companyId });
		}
	});

	test('another n8n process writing the list at the same moment: the administrator is told to open the link again', async () => {
		await connectCompany('FR5001', 'Kept');
		// The other process wrote the list as it read it before this connect: without the new row.
		const olderList = JSON.parse(JSON.stringify(n8n.credentials.get(PARTNER_CREDENTIAL_ID)!.data));
		n8n.afterPatch = (id) => {
			n8n.credentials.get(id)!.data = JSON.parse(JSON.stringify(olderList));
		};
		const { answer } = await connectCompany('GB7002', 'Lost');
		expect(answer.status).toBe(409);
		expect(answer.body).toContain('Open the connect link again');
		expect(answer.items).toEqual([
			expect.objectContaining({
				connected: false,
				companyId: 'GB7002',
				problem: expect.stringContaining('another n8n process'),
			}),
		]);
		expect(n8n.companies().map((row) => row.companyId)).toEqual(['FR5001']);

		n8n.afterPatch = undefined;
		const again = await connectCompany('GB7002', 'Lost');
		expect(again.answer.items?.[0]).toMatchObject({ connected: true, companyId: 'GB7002' });
	});
});

describe('months completed before the connect', () => {
	/** A Partner Payroll Trigger over the Partner API credential as the connect left it (Months: the default). */
	const pollTrigger = () =>
		createTrigger(
			{ event: 'payrollCompleted', companies: 'all' },
			{ partnerPayrollPartnerApi: n8n.credentials.get(PARTNER_CREDENTIAL_ID)!.data },
			{ timezone: 'UTC' },
		);

	test("October completed before the company connected: the item names it, and a poll trigger's first poll of the company indeed starts nothing for it; November, completed after, fires; connected again, nothing to tell", async () => {
		setClock('2026-11-15T12:00:00.000Z');
		const { answer, page, back } = await connectCompany('FR5001', 'Boulangerie Martin');
		expect(answer.items).toEqual([
			{
				connected: true,
				companyId: 'FR5001',
				label: 'Boulangerie Martin',
				scopes: EVERY_SCOPE,
				replaced: false,
				completedBeforeConnect: ['202610'],
				notice:
					'October 2026 was already completed when company FR5001 connected: a Partner Payroll Trigger new to the company records it at its first poll and does not start the workflow for it. A Partner Payroll Webhook Trigger with Match Companies of a Partner Credential does, if the service is still retrying the delivery it refused (Svix retries for about 28 hours); otherwise run the workflow for it by hand.',
			},
		]);
		// The administrator's page says no more than before; no token anywhere.
		expect(page.body).toContain('Connected: Boulangerie Martin (company FR5001)');
		expect(page.body).not.toContain('October');
		const secrets = [
			back.code,
			back.state,
			tokenOfRow(n8n.companies()[0]),
			DEFAULT_CLIENT.clientSecret,
		];
		expectNoSecret(answer, secrets);
		expectNoSecret(page, secrets);
		// The two months were asked with the company's new token.
		const asked = (await session.requests()).filter((request) =>
			request.path.endsWith('/payroll-status'),
		);
		expect(asked.map((request) => [request.query?.date, request.tokenCompanyId])).toEqual([
			['202610', 'FR5001'],
			['202611', 'FR5001'],
		]);

		const trigger = pollTrigger();
		expect(await trigger.poll()).toBeNull();
		await session.control('POST', '/payroll-status', {
			companyId: 'FR5001',
			month: '202611',
			status: 'completed',
		});
		const fired = await trigger.poll();
		expect(fired?.[0].map(({ json }) => [json.companyId, json.month])).toEqual([
			['FR5001', '202611'],
		]);

		// Connected again (a new token in its row): the trigger already watches it, so nothing to tell.
		const again = await connectCompany('FR5001', 'Boulangerie Martin');
		expect(again.answer.items).toEqual([
			{
				connected: true,
				companyId: 'FR5001',
				label: 'Boulangerie Martin',
				scopes: EVERY_SCOPE,
				replaced: true,
			},
		]);
	});

	test('both watched months completed: both named, oldest first', async () => {
		setClock('2026-11-15T12:00:00.000Z');
		await session.control('POST', '/payroll-status', {
			companyId: 'ES6001',
			month: '202611',
			status: 'completed',
		});
		const [item] = (await connectCompany('ES6001')).answer.items!;
		expect(item.completedBeforeConnect).toEqual(['202610', '202611']);
		expect(item.notice).toMatch(
			/^October 2026 and November 2026 were already completed when company ES6001 connected: a Partner Payroll Trigger new to the company records them at its first poll and does not start the workflow for them\./,
		);
		expect(await pollTrigger().poll()).toBeNull();
	});

	test('neither watched month completed: the item is as before, and the first poll has nothing to withhold', async () => {
		const { answer } = await connectCompany('GB7001');
		expect(answer.items).toEqual([
			{
				connected: true,
				companyId: 'GB7001',
				label: 'GB7001',
				scopes: EVERY_SCOPE,
				replaced: false,
			},
		]);
		const trigger = pollTrigger();
		expect(await trigger.poll()).toBeNull();
		await session.control('POST', '/payroll-status', {
			companyId: 'GB7001',
			month: '202606',
			status: 'completed',
		});
		expect((await trigger.poll())?.[0].map(({ json }) => json.month)).toEqual(['202606']);
	});

	test('the service refusing the check (a 403): the company is connected all the same, and the notice says what could not be read', async () => {
		await session.control('POST', '/faults', {
			method: 'GET',
			path: '/api/v1/companies/FR5002/payroll-status',
			type: 'status',
			status: 403,
			count: 5,
		});
		const { answer, page } = await connectCompany('FR5002', 'Garage Dupont');
		const [item] = answer.items!;
		expect(item).toMatchObject({ connected: true, companyId: 'FR5002', label: 'Garage Dupont' });
		expect(item.completedBeforeConnect).toBeUndefined();
		expect(item.notice).toMatch(
			/^Whether the payroll of May 2026 and June 2026 was already completed for company FR5002 could not be read \(.+\)\. A Partner Payroll Trigger does not start the workflow for a month already completed at its first poll of the company: check these months\.$/,
		);
		expect(n8n.companies().map(({ companyId }) => companyId)).toEqual(['FR5002']);
		expect(page.body).toContain('Connected: Garage Dupont (company FR5002)');
		expectNoSecret(answer, [tokenOfRow(n8n.companies()[0])]);
	});
});

describe('refusals', () => {
	test('a tampered or expired state starts nothing and uses no code', async () => {
		const link = await workflow.open(await invitation('Honest'));
		const back = await consent(link.headers.location, 'FR5001');
		const [payload, signature] = back.state.split('.');
		const tampered = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), invitee: { label: 'Evil' } })).toString('base64url')}.${signature}`;
		const expired = signState({ label: 'Late' }, linkSigner(), Date.now() - 16 * 60 * 1000).state;
		await session.clearRequests();
		for (const state of [tampered, expired, '', 'not-a-state']) {
			const answer = await workflow.open({ code: back.code, state });
			expect(answer.status).toBe(400);
			expect(answer.items).toBeUndefined();
			expect(answer.body).toContain('Nothing was connected');
			expectNoSecret(answer, [back.code, DEFAULT_CLIENT.clientSecret]);
		}
		expect((await workflow.open({ code: back.code, state: expired })).body).toContain(
			'the link expired',
		);
		expect((await session.requests()).filter((request) => request.path.endsWith('/token'))).toEqual(
			[],
		);
		expect(n8n.companies()).toEqual([]);
		// The code was not spent: the genuine way back still connects.
		expect((await workflow.open(back)).items?.[0]).toMatchObject({
			connected: true,
			companyId: 'FR5001',
			label: 'Honest',
		});
	});

	test('the way back reopened (a reload, the history): never exchanged again; the browser sees its "connected" page and the token keeps working', async () => {
		const { back, answer } = await connectCompany('FR5001', 'Once');
		const saved = n8n.companies();
		await session.clearRequests();
		n8n.requests.length = 0;
		const again = await workflow.open(back);
		expect(again.status).toBe(302);
		expect(again.headers.location).toBe(answer.headers.location);
		expect(again.items).toBeUndefined();
		// Another browser with the same address (a proxy's log): a fixed page, nothing else.
		const replayed = await workflow.open(back, new Browser());
		expect(replayed.status).toBe(409);
		expect(replayed.body).toContain('This link was already used');
		expect(replayed.items).toBeUndefined();
		expectNoSecret(replayed, [back.code, back.state, tokenOfRow(saved[0])]);
		expect(await session.requests()).toEqual([]);
		expect(n8n.requests).toEqual([]);
		expect(n8n.companies()).toEqual(saved);
		expect((await getStatus('FR5001'))[0].json).toMatchObject({ companyId: 'FR5001' });
	});

	test('a "connected" page that this link did not sign is refused', async () => {
		const { answer } = await connectCompany('FR5001', 'Real');
		const { connected } = queryOfRedirect(answer);
		const [, signature] = connected.split('.');
		const forged = `${Buffer.from(JSON.stringify({ exp: Date.now() + 60_000, companyId: 'FR5001', label: '<b>Fake</b>' })).toString('base64url')}.${signature}`;
		const page = await workflow.open({ connected: forged });
		expect(page.status).toBe(400);
		expect(page.body).not.toContain('Fake');
		expect(page.items).toBeUndefined();
	});

	test('a refusal on the consent page starts nothing', async () => {
		const answer = await workflow.open({ error: 'access_denied', state: 'whatever' });
		expect(answer.status).toBe(400);
		expect(answer.items).toBeUndefined();
		expect(answer.body).toContain('Access was refused');
	});

	test('a token issued to another client is not saved', async () => {
		const foreign = session.sandbox.issueToken({
			companyId: 'FR5001',
			scopes: ['payment-files:read'],
			clientId: 'restricted-app',
		}).access_token;
		// An authorization server that answers the exchange with another application's token.
		const server = await startStubService(async (request) => {
			if (request.path.endsWith('/token'))
				return { status: 200, json: { access_token: foreign, token_type: 'bearer' } };
			const answer = await fetch(`${session.sandbox.authServerUrl}/introspect`, {
				method: 'POST',
				headers: {
					Authorization: String(request.headers.authorization),
					'Content-Type': 'application/json',
				},
				body: request.body,
			});
			return { status: answer.status, json: await answer.json() };
		});
		try {
			const data = n8n.credentials.get(PARTNER_CREDENTIAL_ID)!.data;
			data.authServerUrl = server.url;
			const link = await workflow.open(await invitation('Foreign'));
			const state = String(new URL(link.headers.location).searchParams.get('state'));
			const answer = await workflow.open({ code: 'any-code', state });
			expect(answer.status).toBe(502);
			expect(answer.items).toEqual([
				expect.objectContaining({
					connected: false,
					problem: expect.stringContaining('client restricted-app'),
				}),
			]);
			expectNoSecret(answer, [foreign, 'any-code']);
			expect(n8n.companies()).toEqual([]);
		} finally {
			await server.close();
		}
	});

	test("n8n's public API refusing the key: the link sends nobody to the consent page, the page asks nothing of the administrator, the item tells the partner", async () => {
		const query = await invitation('Waiting');
		const wrongKey = randomUUID();
		workflow.n8nApiCredential = () => ({ url: n8n.url, apiKey: wrongKey });
		const answer = await workflow.open(query);
		expect(answer.status).toBe(503);
		expect(answer.headers.location).toBeUndefined();
		expect(answer.body).toContain('Your payroll partner must finish setting up this connection');
		expect(answer.body).not.toMatch(/API key|sbx_/);
		expect(answer.items).toEqual([
			{
				connected: false,
				label: 'Waiting',
				problem: expect.stringContaining(
					'refused the API key of the Partner Payroll n8n API credential (401)',
				),
			},
		]);
		expectNoSecret(answer, [wrongKey]);

		n8n.enabled = false;
		workflow.n8nApiCredential = () => ({ url: n8n.url, apiKey: N8N_API_KEY });
		const disabled = await workflow.open(query);
		expect(disabled.items?.[0].problem).toContain('it is disabled (N8N_PUBLIC_API_DISABLED)');

		n8n.enabled = true;
		const link = await workflow.open(query);
		const back = await consent(link.headers.location, 'FR5001');
		expect((await workflow.open(back)).items?.[0]).toMatchObject({
			connected: true,
			companyId: 'FR5001',
		});
	});

	test('n8n unreachable at the credential URL: the item names the address to check', async () => {
		const query = await invitation('Unreachable');
		const closed = await startStubService(() => ({ status: 200, json: {} }));
		const url = closed.url;
		await closed.close();
		workflow.n8nApiCredential = () => ({ url, apiKey: N8N_API_KEY });
		const answer = await workflow.open(query);
		expect(answer.status).toBe(503);
		expect(answer.items?.[0].problem).toContain(`could not be reached at ${url}/api/v1`);
	});
});

describe('Partner Credential → Remove Company (the Partner Payroll node)', () => {
	const removeCompany = async (companyId: string, apiKey?: string) =>
		await runPartnerPayroll(
			{ resource: 'partnerCredential', operation: 'removeCompany', companyId },
			nodeCredentials(apiKey),
		);

	test("removes the company's row, keeps every other row and token in place, and the company's requests are then refused", async () => {
		for (const [companyId, label] of [
			['FR5001', 'First'],
			['ES6001', 'Second'],
			['GB7001', 'Third'],
		]) {
			await connectCompany(companyId, label);
		}
		const before = n8n.companies();

		const items = await removeCompany('ES6001');
		expect(items.map((item) => item.json)).toEqual([
			{ companyId: 'ES6001', companyLabel: 'Second', removed: true },
		]);
		expect(n8n.companies()).toEqual([before[0], before[2]]);
		for (const companyId of ['FR5001', 'GB7001']) {
			expect((await getStatus(companyId))[0].json).toMatchObject({ companyId });
		}
		await session.clearRequests();
		const refused = await getStatus('ES6001').then(
			() => undefined,
			(error: Error) => error.message,
		);
		expect(refused).toContain("Company ES6001 is not in the credential's company list");
		expect(await session.requests()).toEqual([]);

		// Already gone: nothing to remove, and no error for a workflow that runs twice.
		expect((await removeCompany('ES6001')).map((item) => item.json)).toEqual([
			{ companyId: 'ES6001', companyLabel: null, removed: false },
		]);
	});

	test('removes a broken row too (a token moved there by an edit in n8n)', async () => {
		await connectCompany('FR5001', 'First');
		await connectCompany('ES6001', 'Second');
		const rows = n8n.companies();
		// What an editor reorder leaves: ES6001's row holds FR5001's token.
		rows[1].accessToken = rows[0].accessToken;
		expect((await removeCompany('ES6001')).map((item) => item.json)).toEqual([
			{ companyId: 'ES6001', companyLabel: 'Second', removed: true },
		]);
		expect(n8n.companies().map((row) => row.companyId)).toEqual(['FR5001']);
	});

	test("n8n's public API refusing the key: the error says what to fix, and the list is unchanged", async () => {
		await connectCompany('FR5001', 'First');
		const before = n8n.companies();
		const message = await removeCompany('FR5001', randomUUID()).then(
			() => undefined,
			(error: Error) => error.message,
		);
		expect(message).toContain(
			'refused the API key of the Partner Payroll n8n API credential (401)',
		);
		expect(n8n.companies()).toEqual(before);
	});

	test('an empty Company is refused before any request', async () => {
		const message = await removeCompany('').then(
			() => undefined,
			(error: Error) => error.message,
		);
		expect(message).toBe('Company is empty');
		expect(n8n.requests).toEqual([]);
	});
});

// The findings of the security review (docs/partner-credential-security.md), one describe each.

/** The token requests the sandbox received since the last clear. */
const tokenRequests = async () =>
	(await session.requests()).filter((request) => request.path.endsWith('/token'));

/** A state of this link, freshly opened in its own browser (as anyone holding an invitation can). */
async function freshState(query: Record<string, string>) {
	const browser = new Browser();
	const link = await workflow.open(query, browser);
	return { browser, location: link.headers.location };
}

describe('F1: invitations; a state serves one browser and one code; labels only from the partner', () => {
	test('without an invitation the link connects nothing unless Allow Any Company is on', async () => {
		const answer = await workflow.open({ label: 'Anyone' });
		expect(answer.status).toBe(400);
		expect(answer.headers.location).toBeUndefined();
		expect(answer.body).toContain(
			'needs the invitation your payroll partner made for your company',
		);
		expect(answer.items).toBeUndefined();
		expect(workflow.warnings).toEqual([expect.stringContaining('without an invitation')]);
		expect(n8n.requests).toEqual([]);
	});

	test('Create Connect Link: a signed link to the trigger, 7 days by default, at most 30', async () => {
		const before = Date.now();
		const link = await createConnectLink('Boulangerie Martin', { companyId: 'FR5001' });
		expect(link).toEqual({
			connectLink: expect.stringMatching(/\?invitation=[\w-]+\.[\w-]+$/),
			label: 'Boulangerie Martin',
			companyId: 'FR5001',
			expiresAt: expect.any(String),
		});
		expect(link.connectLink.startsWith(`${CONNECT_URL}?invitation=`)).toBe(true);
		const lifetime = Date.parse(link.expiresAt) - before;
		expect(lifetime).toBeGreaterThanOrEqual(7 * 24 * 3600_000 - 1000);
		expect(lifetime).toBeLessThanOrEqual(7 * 24 * 3600_000 + 1000);
		for (const lifetimeDays of [0, 31, 1.5]) {
			const message = await createConnectLink('Late', { lifetimeDays }).then(
				() => undefined,
				(error: Error) => error.message,
			);
			expect(message).toContain('Lifetime (Days) must be a whole number from 1 to 30');
		}
		for (const connectLink of ['not a url', `${CONNECT_URL}?label=x`, 'https://n8n.example.com/']) {
			const message = await createConnectLink('Where', { connectLink }).then(
				() => undefined,
				(error: Error) => error.message,
			);
			expect(message).toContain('Connect Link URL must be the Production URL');
		}
	});

	test('an invitation that is expired, altered or made for another link is refused before the consent page', async () => {
		await createConnectLink('Make the secret');
		const { key } = linkSigner();
		const genuine = (await invitation('Genuine')).invitation;
		const [payload, signature] = genuine.split('.');
		const altered = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), label: 'Evil' })).toString('base64url')}.${signature}`;
		const otherLink = queryOfLink(
			(
				await createConnectLink('Elsewhere', {
					connectLink: 'http://127.0.0.1:5678/webhook/another-node/connect',
				})
			).connectLink,
		).invitation;
		const expired = signInvitation({ label: 'Late' }, Date.now() - 1000, {
			key,
			linkUrl: CONNECT_URL,
		});
		for (const [value, words] of [
			[altered, 'was altered'],
			[otherLink, 'signed for another link'],
			[expired, 'expired'],
		]) {
			const answer = await workflow.open({ invitation: value });
			expect(answer.status).toBe(400);
			expect(answer.headers.location).toBeUndefined();
			expect(answer.body).toContain(words);
			expect(answer.items).toBeUndefined();
		}
	});

	test('behind https the state cookie is Secure too', () => {
		const headers: Record<string, string> = {};
		const context = {
			getResponseObject: () => ({
				setHeader: (name: string, value: string) => (headers[name] = value),
			}),
		} as never;
		bindToBrowser(context, 'nonce-1', 'https://n8n.example.com/webhook/abc/connect');
		expect(headers['Set-Cookie']).toBe(
			'pp_connect=nonce-1; Path=/webhook/abc/connect; Max-Age=900; HttpOnly; SameSite=Lax; Secure',
		);
	});

	test('one state, two codes: the second company is refused and changes no row', async () => {
		const link = await workflow.open(await invitation('For one client'));
		const first = await consent(link.headers.location, 'FR5001');
		const second = await consent(link.headers.location, 'FR5002');
		expect(second.state).toBe(first.state);
		expect((await workflow.open(first)).items?.[0]).toMatchObject({ connected: true });
		await session.clearRequests();
		n8n.requests.length = 0;
		const refused = await workflow.open(second);
		expect(refused.status).toBe(409);
		expect(refused.items).toBeUndefined();
		expect(await tokenRequests()).toEqual([]);
		expect(n8n.requests).toEqual([]);
		expect(n8n.companies().map((row) => [row.companyId, row.label])).toEqual([
			['FR5001', 'For one client'],
		]);
	});

	test("a state comes back only to the browser that opened the link: another's state connects nothing", async () => {
		// The attacker opens the link, and sends the way back with their state to a victim's browser.
		const attacker = await freshState(await invitation('Attacker'));
		const back = await consent(attacker.location, 'FR5001');
		await session.clearRequests();
		const victim = await workflow.open(back, new Browser());
		expect(victim.status).toBe(400);
		expect(victim.body).toContain('another browser than the one that opened the link');
		expect(victim.items).toBeUndefined();
		expect(await tokenRequests()).toEqual([]);
		expect(n8n.companies()).toEqual([]);
	});

	test('an invitation for one company refuses the consent of another, saves nothing, and still serves its company', async () => {
		const query = await invitation('Boulangerie Martin', 'FR5001');
		const link = await workflow.open(query);
		n8n.requests.length = 0;
		const wrong = await workflow.open(await consent(link.headers.location, 'FR5002'));
		expect(n8n.requests).toEqual([]);
		expect(wrong.status).toBe(403);
		expect(wrong.body).toContain('This link was made for another company');
		expect(wrong.items).toBeUndefined();
		expect(workflow.warnings).toEqual([
			expect.stringContaining('the invitation was for company FR5001'),
		]);
		expect(n8n.companies()).toEqual([]);

		const again = await workflow.open(query);
		const right = await workflow.open(await consent(again.headers.location, 'FR5001'));
		expect(right.items?.[0]).toMatchObject({ connected: true, companyId: 'FR5001' });
	});

	test('an invitation for one company, consented by a company already connected: its row gets the new token (the service replaced the old one), the partner is told, no company is added', async () => {
		await connectCompany('FR5002', 'Garage Dupont');
		const before = tokenOfRow(n8n.companies()[0]);
		const link = await workflow.open(await invitation('Boulangerie Martin', 'FR5001'));
		const answer = await workflow.open(await consent(link.headers.location, 'FR5002'));

		expect(answer.status).toBe(302);
		const page = await workflow.open(queryOfRedirect(answer));
		expect(page.body).toContain('Connected: Garage Dupont (company FR5002)');
		expect(answer.items).toEqual([
			expect.objectContaining({
				connected: true,
				companyId: 'FR5002',
				label: 'Garage Dupont',
				replaced: true,
				invitedCompanyId: 'FR5001',
				warning: expect.stringContaining(
					'This link was made for company FR5001, and company FR5002',
				) as string,
			}),
		]);
		const rows = n8n.companies();
		expect(rows.map((row) => [row.companyId, row.label])).toEqual([['FR5002', 'Garage Dupont']]);
		expect(tokenOfRow(rows[0])).not.toBe(before);
		expect((await getStatus('FR5002'))[0].json).toMatchObject({ companyId: 'FR5002' });
	});

	test('a label in the query is never used: the open link names a new row by its company, and renames no row', async () => {
		await connectCompany('FR5002', 'Garage Dupont');
		workflow.parameters = { allowAnyCompany: true };
		for (const companyId of ['FR5002', 'ES6001']) {
			const link = await workflow.open({ label: 'Boulangerie Martin' });
			await workflow.open(await consent(link.headers.location, companyId));
		}
		expect(n8n.companies().map((row) => [row.companyId, row.label])).toEqual([
			['FR5002', 'Garage Dupont'],
			['ES6001', 'ES6001'],
		]);
	});
});

describe('F2: a junk, replayed or refused code costs the partner nothing', () => {
	test('a junk code: no execution, no call to n8n, a warning and nothing logged above it', async () => {
		const query = await invitation('Flood');
		for (let attempt = 0; attempt < 12; attempt++) {
			const { browser, location } = await freshState(query);
			const state = String(new URL(location).searchParams.get('state'));
			n8n.requests.length = 0;
			const answer = await workflow.open({ code: `junk-${attempt}`, state }, browser);
			expect(answer.status).toBe(400);
			expect(answer.body).toContain('already used or has expired');
			expect(answer.items).toBeUndefined();
			expect(n8n.requests).toEqual([]);
		}
		// Warnings only (the cap is the next test's: it needs its own clock).
		expect(workflow.warnings[0]).toContain('the token endpoint refused its code');
		expect(workflow.logs.filter((line) => !workflow.warnings.includes(line))).toEqual([]);
	});

	test('the refusal log: 10 lines a minute, one line saying the rest is not logged, and again the next minute', () => {
		const lines: string[] = [];
		const context = { logger: { warn: (line: string) => lines.push(line) } } as never;
		const minute = 60_000 * 1_000_000;
		for (let count = 0; count < 25; count++) warnRefusal(context, `refusal ${count}`, minute);
		expect(lines).toHaveLength(WARNINGS_PER_MINUTE + 1);
		expect(lines.at(-1)).toContain('more refusals this minute are not logged');
		warnRefusal(context, 'next minute', minute + 60_000);
		expect(lines.at(-1)).toContain('next minute');
	});
});

describe('F6: the state and the "connected" page are not interchangeable', () => {
	test('a state shown as a "connected" page is refused', async () => {
		const link = await workflow.open(await invitation('Your bank: call +33 1 23 45 67 89 now'));
		const state = String(new URL(link.headers.location).searchParams.get('state'));
		const page = await workflow.open({ connected: state });
		expect(page.status).toBe(400);
		expect(page.body).not.toContain('Your bank');
	});

	test('a "connected" page used as a state is refused, and no code is exchanged', async () => {
		const { answer } = await connectCompany('FR5001', 'Real');
		const { connected } = queryOfRedirect(answer);
		await session.clearRequests();
		const reused = await workflow.open({ code: 'any-code', state: connected });
		expect(reused.status).toBe(400);
		expect(reused.items).toBeUndefined();
		expect(await tokenRequests()).toEqual([]);
	});
});

describe("F7: the link signs with a secret of its own, scoped to the node's address", () => {
	test('a random secret, written once into the Partner API credential through n8n, never shown', async () => {
		await createConnectLink('First');
		const secret = linkSigner().key;
		expect(secret).toMatch(/^[\w-]{43}$/);
		expect(secret).not.toBe(DEFAULT_CLIENT.clientSecret);
		const { answer, page, link } = await connectCompany('FR5001', 'Second');
		expect(linkSigner().key).toBe(secret);
		expect(n8n.requests.filter((request) => request.method === 'PATCH')).toHaveLength(2);
		for (const shown of [answer, page, link]) expectNoSecret(shown, [secret]);
	});

	test('the open link creates the secret on its first opening', async () => {
		workflow.parameters = { allowAnyCompany: true };
		const link = await workflow.open({});
		expect(link.status).toBe(302);
		expect(linkSigner().key).toMatch(/^[\w-]{43}$/);
		const state = String(new URL(link.headers.location).searchParams.get('state'));
		expect(verifyState(state, linkSigner())).toHaveProperty('content');
	});
});

describe('F8: fixed pages, nothing reflected, hardening headers', () => {
	test.each([
		['access_denied', 'Access was refused on the consent page'],
		['server_error', 'could not complete the consent just now'],
		[
			'URGENT: re-enter your bank details at https://evil.example '.repeat(80),
			'did not connect your company',
		],
	])('?error=%s shows fixed text only', async (error, words) => {
		const answer = await workflow.open({ error, state: 'whatever' });
		expect(answer.status).toBe(400);
		expect(answer.body).toContain(words);
		expect(answer.body).not.toContain(error);
		expect(answer.body).not.toContain('evil.example');
	});

	test('every page and redirect sends the CSP, nosniff, no-store and no-referrer headers', async () => {
		const { link, answer, page } = await connectCompany('FR5001', 'Headers');
		const refused = await workflow.open({});
		for (const shown of [link, answer, page, refused]) {
			expect(shown.headers).toMatchObject({
				'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
				'x-content-type-options': 'nosniff',
				'cache-control': 'no-store',
				'referrer-policy': 'no-referrer',
			});
		}
	});
});

// Several n8n processes (queue mode with webhook processes, several mains) change one company list:
// each change holds the list's lock in n8n's Data Tables (nodes/shared/listLock.ts), a lease.

/** The Connect trigger as another n8n process loads it: modules of its own, so no lock of this process. */
function triggerOfAnotherProcess() {
	type TriggerModule =
		typeof import('../../../nodes/PartnerPayrollConnectTrigger/PartnerPayrollConnectTrigger.node');
	let loaded: TriggerModule | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		loaded = require('../../../nodes/PartnerPayrollConnectTrigger/PartnerPayrollConnectTrigger.node');
	});
	return new loaded!.PartnerPayrollConnectTrigger();
}

class WorkflowInAnotherProcess extends ConnectWorkflow {
	override readonly trigger = triggerOfAnotherProcess();
}

const lockTable = () =>
	[...n8n.dataTables.tables.values()].find((table) => table.name === LIST_LOCK_TABLE_NAME)!;
const lockRows = () => lockTable().rows.filter((row) => row.credentialId === PARTNER_CREDENTIAL_ID);
/** Where the lock's rows are read (and, with `/update`, changed) in n8n's public API. */
const lockRowsPath = () =>
	`/api/v1/data-tables/${[...n8n.dataTables.tables].find(([, table]) => table.name === LIST_LOCK_TABLE_NAME)![0]}/rows`;
const listedCompanies = () => n8n.companies().map((row) => row.companyId);
/** The conditional updates sent to n8n's Data Tables so far (each attempt to take the lock is one). */
const tableUpdates = () =>
	n8n.dataTables.requests.filter((request) => request.path.endsWith('/rows/update')).length;

/** Puts the credential's lock in the hands of `holder` since `takenAt`, as another process would. */
function holdLock(holder: string, takenAt: string) {
	if (!lockRows().length)
		lockTable().rows.push({ id: 1_000_000, credentialId: PARTNER_CREDENTIAL_ID });
	for (const row of lockRows()) Object.assign(row, { holder, takenAt });
}

/** A consent back from the provider, not yet followed: the connect link opened (its table checked). */
async function consentGiven(companyId: string, label: string, on: ConnectWorkflow = workflow) {
	const browser = new Browser();
	const link = await on.open(await invitation(label), browser);
	return { browser, back: await consent(link.headers.location, companyId) };
}

describe("the company list's lock, shared by every n8n process", () => {
	afterEach(() => {
		n8n.beforePatch = undefined;
		n8n.dataTablesRefused = false;
	});

	test('two processes connecting two companies at once: the one that read the list first writes after the other, and both rows stay', async () => {
		const other = new WorkflowInAnotherProcess(n8n);
		const first = await consentGiven('FR5002', 'One');
		const second = await consentGiven('ES6002', 'Two', other);
		// The other process's write of the list is held at n8n (a slow process) until this process has
		// connected its company, or has tried a few times to take the lock.
		let writing!: () => void;
		const written = new Promise<void>((resolve) => (writing = resolve));
		let release!: () => void;
		const released = new Promise<void>((resolve) => (release = resolve));
		n8n.beforePatch = async () => {
			n8n.beforePatch = undefined;
			writing();
			await released;
		};
		const late = other.open(second.back, second.browser);
		await written;
		const updatesBefore = tableUpdates();
		let ended = false;
		const early = workflow.open(first.back, first.browser).finally(() => (ended = true));
		while (!ended && tableUpdates() < updatesBefore + 3) await pause(10);
		release();

		const answers = await Promise.all([early, late]);
		expect(answers.map((answer) => answer.items?.[0]?.connected)).toEqual([true, true]);
		expect(listedCompanies().sort()).toEqual(['ES6002', 'FR5002']);
		expect(lockRows().map((row) => row.holder)).toEqual(['free']);
	});

	test('a lock left by a process that died holding it is taken over once its lease ran out', async () => {
		const { back, browser } = await consentGiven('FR5002', 'After a crash');
		holdLock('died-while-holding', new Date(Date.now() - LEASE_MS - 1_000).toISOString());
		const answer = await workflow.open(back, browser);
		expect(answer.items?.[0]).toMatchObject({ connected: true, companyId: 'FR5002' });
		expect(listedCompanies()).toEqual(['FR5002']);
		expect(lockRows().map((row) => row.holder)).toEqual(['free']);
	});

	test('a dead holder whose lock another process took over meanwhile: that process keeps it (the takeover matches the dead holder exactly)', async () => {
		const { back, browser } = await consentGiven('FR5002', 'Second taker');
		holdLock('died-while-holding', new Date(Date.now() - LEASE_MS - 1_000).toISOString());
		const rowsPath = lockRowsPath();
		// Once this connect has read the dead holder, another process takes the lock over first.
		n8n.dataTables.onFirstRequest.set(rowsPath, () =>
			n8n.dataTables.onFirstRequest.set(`${rowsPath}/update`, () =>
				holdLock('took-it-over', new Date().toISOString()),
			),
		);
		const updatesBefore = tableUpdates();
		let ended = false;
		const answer = workflow.open(back, browser).finally(() => (ended = true));
		while (!ended && tableUpdates() < updatesBefore + 5) await pause(10);
		expect(lockRows().map((row) => row.holder)).toEqual(['took-it-over']);
		expect(n8n.companies()).toEqual([]);

		holdLock('free', '');
		expect((await answer).items?.[0]).toMatchObject({ connected: true, companyId: 'FR5002' });
	});

	test('a live holder is never taken over, even near the end of its lease: the connect waits until it gives the lock back', async () => {
		const { back, browser } = await consentGiven('FR5002', 'Waits');
		const writesBefore = n8n.requests.filter((request) => request.method === 'PATCH').length;
		holdLock('live-holder', new Date(Date.now() - LEASE_MS + 20_000).toISOString());
		const updatesBefore = tableUpdates();
		let ended = false;
		const answer = workflow.open(back, browser).finally(() => (ended = true));
		while (!ended && tableUpdates() < updatesBefore + 5) await pause(10);
		expect(lockRows().map((row) => row.holder)).toEqual(['live-holder']);
		expect(n8n.requests.filter((request) => request.method === 'PATCH')).toHaveLength(writesBefore);

		holdLock('free', '');
		expect((await answer).items?.[0]).toMatchObject({ connected: true, companyId: 'FR5002' });
		expect(listedCompanies()).toEqual(['FR5002']);
	});

	test('a change that held the lock past its write window writes nothing: the administrator is asked to open the link again', async () => {
		const { back, browser } = await consentGiven('FR5002', 'Slow');
		const rowsPath = lockRowsPath();
		// n8n answers the read that completes the lock's taking a whole write window late.
		n8n.dataTables.onFirstRequest.set(rowsPath, () => advanceWallClock(WRITE_WINDOW_MS + 1_000));
		try {
			const answer = await workflow.open(back, browser);
			expect(answer.status).toBe(409);
			expect(answer.items?.[0]).toMatchObject({
				connected: false,
				problem: expect.stringContaining('The company list was not written'),
			});
			expect(n8n.companies()).toEqual([]);
			expect(lockRows().map((row) => row.holder)).toEqual(['free']);
		} finally {
			restoreClock();
		}
	});

	test("a key without access to n8n's Data Tables: the link sends nobody to the consent page, and the item names the scopes to give", async () => {
		const query = await invitation('No tables');
		n8n.dataTablesRefused = true;
		const answer = await workflow.open(query);
		expect(answer.status).toBe(503);
		expect(answer.headers.location).toBeUndefined();
		expect(answer.body).toContain('Your payroll partner must finish setting up this connection');
		const problem = String(answer.items?.[0].problem);
		expect(problem).toContain(`the table "${LIST_LOCK_TABLE_NAME}" of this n8n's Data Tables`);
		expect(problem).toContain('(403)');
		expect(problem).toContain('dataTableRow:read, dataTableRow:create and dataTableRow:update');
		expectNoSecret(answer, [N8N_API_KEY]);
	});

	test('Data Tables refused once the administrator consented: the token is not saved and nobody is told "connected"', async () => {
		const { back, browser } = await consentGiven('FR5002', 'Refused later');
		n8n.dataTablesRefused = true;
		const answer = await workflow.open(back, browser);
		expect(answer.status).toBe(503);
		expect(answer.items?.[0]).toMatchObject({
			connected: false,
			companyId: 'FR5002',
			problem: expect.stringContaining('dataTableRow:update'),
		});
		expect(n8n.companies()).toEqual([]);
	});

	test('Remove Company with Data Tables refused: the error names the scopes, and the list is unchanged', async () => {
		await connectCompany('FR5001', 'First');
		const before = n8n.companies();
		n8n.dataTablesRefused = true;
		const message = await runPartnerPayroll(
			{ resource: 'partnerCredential', operation: 'removeCompany', companyId: 'FR5001' },
			nodeCredentials(),
		).then(
			() => undefined,
			(error: Error) => error.message,
		);
		expect(message).toContain(`the table "${LIST_LOCK_TABLE_NAME}"`);
		expect(message).toContain('dataTable:list, dataTable:create');
		expect(n8n.companies()).toEqual(before);
	});
});
