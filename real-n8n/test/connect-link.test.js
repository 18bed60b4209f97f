'use strict';
// The connect link in a real n8n, as `npm start` sets it up: the shipped example "partner, connect link"
// (real-n8n/examples/partner-connect-link.json, Allow Any Company on) imported and published, its Partner API
// credential empty, and its n8n API credential given the owner's public-API key by ensureConnectLink, which
// also registers the link with the sandbox. A real headless browser plays the client administrators on the
// sandbox's consent page (300 companies).
//
// Three companies connect: FR5001 and ES6002 with invitations that the partner made with Partner Credential →
// Create Connect Link in a workflow run by n8n (FR5001's names its company, ES6002's does not), GB7003 through
// the open link, whose `?label=` is ignored. On the way, each refusal the link makes is tried once: a tampered
// state, the way back reloaded (the "connected" page again, nothing exchanged), the way back replayed without
// the browser's cookie, a junk code, a consent for a company the invitation did not name and an expired state; each
// starts no execution and changes no row. Between FR5001 and ES6002 the credential is saved in n8n's editor
// and through its REST API: the link's secret, and so ES6002's invitation made before, survive. Before GB7003
// the owner deletes the key in Settings → n8n API: the next start makes a new one, and the link goes on.
const fs = require('node:fs');
const path = require('node:path');
const {
	ensureN8nInstalled,
	createInstance,
	startTestSandbox,
	sandboxControl,
	introspect,
	launchBrowser,
	signIn,
	N8nRest,
	N8nPublicApi,
	DEFAULT_CLIENT,
	PARTNER_CONNECT_DEMO,
	connectExampleCredentials,
	ensureConnectLink,
	importExamples,
	installedPackageDir,
	partnerPayrollNode,
	chainWorkflow,
	nodeItems,
} = require('../lib');

jest.setTimeout(180_000);
const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing

const PARTNER = { ...PARTNER_CONNECT_DEMO.credential, type: 'partnerPayrollPartnerApi' };
const N8N_API = { ...PARTNER_CONNECT_DEMO.n8nApiCredential, type: 'partnerPayrollN8nApi' };
const WORKFLOW_ID = PARTNER_CONNECT_DEMO.workflowId;
const TRIGGER = 'Connect link';
const CONNECTED_BRANCH = 'Company connected (welcome it)';
// A seeded company and two of the generated ones, in three countries.
const BOULANGERIE = { companyId: 'FR5001', label: 'Boulangerie Martin' };
const TALLER = { companyId: 'ES6002', label: 'Taller Ruiz' };
// Connected by the open link: its row is named by its ID, whatever the link's query says.
const HARBOUR = { companyId: 'GB7003', label: 'GB7003', queryLabel: 'Harbour Tea Ltd' };
// Typed in n8n's editor over the label FR5001 connected with.
const EDITED_LABEL = 'Boulangerie Martin & Fils';
const MONTH = '202610';
const COOKIE = 'pp_connect';

let instance;
let sandbox;
let browser;
let rest;
let api;
let owner;
let apiKeyFile;
let linkUrl;
/** The two invitations' items, as Create Connect Link gave them. */
let invitations;
const setups = [];
/** Every connected page the administrators saw: {companyId, url, text, html}. */
const connectedPages = [];
/** Every refusal tried: {what, status, text, rowsBefore, rowsAfter}. */
const refusals = [];
/** The way back of FR5001's consent, and what its reload and replay answered. */
let wayBack;
let reload;
let replay;
/** The credential before and after the saves in n8n's editor and REST API. */
let beforeSaves;
let afterEditorSave;
let afterRestSave;

const storedCredential = async () => (await instance.cli.exportCredential(PARTNER.id)).data;
const storedCompanies = async () => (await storedCredential()).companies?.company ?? [];

/** What npm start does once n8n runs: the owner's key (kept or new) in the n8n API credential, the link registered. */
async function setUpLink() {
	const setup = await ensureConnectLink({ rest, n8nUrl: instance.url, sandbox, apiKeyFile });
	setups.push({ ...setup, apiKey: JSON.parse(fs.readFileSync(apiKeyFile, 'utf8')).apiKey });
	return setup.connectLink;
}

/** The partner's links: Partner Credential → Create Connect Link in a workflow that n8n runs. */
async function createInvitations() {
	const invite = (name, { label, companyId }) => {
		const node = partnerPayrollNode(
			name,
			{ resource: 'partnerCredential', operation: 'createConnectLink', connectLink: linkUrl, label, expectedCompanyId: companyId ?? '' },
			PARTNER,
		);
		return { ...node, credentials: { ...node.credentials, [N8N_API.type]: { id: N8N_API.id, name: N8N_API.name } } };
	};
	const workflow = chainWorkflow('wfConnectInvites', 'Connect links for two clients', [
		invite('Invite FR5001', BOULANGERIE),
		// No expected company: the administrator chooses it on the consent page.
		invite('Invite a Spanish client', { label: TALLER.label }),
	]);
	await instance.cli.importWorkflows([workflow]);
	const { ok, run } = await instance.cli.executeWorkflow(workflow.id);
	if (!ok) throw new Error(`Create Connect Link failed: ${JSON.stringify(run.data.resultData.error)}`);
	return [nodeItems(run, 'Invite FR5001')[0].json, nodeItems(run, 'Invite a Spanish client')[0].json];
}

/** A new tab on `url` (a link, or a way back): resolves the tab and n8n's last answer. */
async function open(url) {
	const page = await browser.context.newPage();
	page.setDefaultTimeout(60_000);
	const response = await page.goto(url);
	return { page, response };
}

/** The administrator opens `link` and reaches the consent page: resolves the tab. */
async function openConsent(link) {
	const { page } = await open(link);
	await page
		.locator('#consent')
		.waitFor()
		.catch(async (error) => {
			throw new Error(`${error.message}\nThe page said: ${await page.locator('body').innerText()}`);
		});
	return page;
}

const isWayBack = (url) => url.href.startsWith(linkUrl) && url.searchParams.has('code');

/**
 * On the consent page, picks `companyId` and accepts. With `hold`, the way back never reaches n8n: the
 * consent's answer is taken before the browser follows it, and its address (the code still unused) is
 * resolved. Otherwise resolves n8n's final answer.
 */
async function consent(page, companyId, { hold = false } = {}) {
	await page.locator('#company').selectOption(companyId);
	if (hold) {
		// A route sees the request of the consent form, not the redirect it answers: fetch it without following.
		const consentForm = (url) => url.pathname.endsWith('/authorize');
		let resolveHeld;
		const held = new Promise((resolve) => {
			resolveHeld = resolve;
		});
		await page.route(consentForm, async (route) => {
			const answer = await route.fetch({ maxRedirects: 0 });
			resolveHeld(answer.headers().location);
			await route.fulfill({ status: 204 });
		});
		await page.locator('#accept').click();
		const address = await held;
		await page.unroute(consentForm);
		if (!isWayBack(new URL(address))) throw new Error(`the consent answered a redirect to ${address}`);
		return address;
	}
	const [response] = await Promise.all([
		// n8n's last answer: the "connected" page, or a page that refuses.
		page.waitForResponse((answer) => answer.url().startsWith(linkUrl) && answer.status() !== 302),
		page.locator('#accept').click(),
	]);
	await page.waitForLoadState();
	return response;
}

/** The "connected" page the tab shows: kept for the tests below, or what it said instead. */
async function keepConnectedPage(page, companyId) {
	await page
		.getByText('Connected:')
		.waitFor()
		.catch(async (error) => {
			throw new Error(`${error.message}\nThe page said: ${await page.locator('body').innerText()}`);
		});
	const shown = { companyId, url: page.url(), text: await page.locator('body').innerText(), html: await page.content() };
	connectedPages.push(shown);
	return shown;
}

/** A refusal: `attempt(page)` resolves n8n's answer; the rows are read before and after. */
async function tryRefusal(what, attempt) {
	const rowsBefore = await storedCompanies();
	const page = await browser.context.newPage();
	page.setDefaultTimeout(60_000);
	const response = await attempt(page);
	refusals.push({ what, status: response.status(), text: await page.locator('body').innerText(), rowsBefore, rowsAfter: null });
	await page.close();
	return refusals.at(-1);
}

/** Reads the rows after a run of refusals: each refusal of the run must have left them as they were. */
async function closeRefusals() {
	const rows = await storedCompanies();
	for (const refusal of refusals) refusal.rowsAfter ??= rows;
}

/** A state this link signed, whose 15 minutes are over, and the browser holding its cookie. */
async function expiredState(key) {
	const { signState } = require(path.join(installedPackageDir(instance.userFolder), 'dist', 'nodes', 'shared', 'linkSigning.js'));
	const { state, nonce } = signState({ label: 'Late client' }, { key, linkUrl }, Date.now() - 16 * 60_000);
	await browser.context.addCookies([{ name: COOKIE, value: nonce, domain: '127.0.0.1', path: new URL(linkUrl).pathname }]);
	return state;
}

/** n8n's editor: the credential opened, FR5001's label edited, Save; the modal's PATCH must succeed. */
async function saveInEditor() {
	const page = await browser.context.newPage();
	page.setDefaultTimeout(60_000);
	await signIn(page, instance.url, owner);
	await page.goto(`${instance.url}/home/credentials/${PARTNER.id}`);
	const modal = page.locator('[data-test-id="editCredential-modal"]');
	await modal.locator('[data-test-id="parameter-input-label"] input').first().fill(EDITED_LABEL);
	const [saved] = await Promise.all([
		page.waitForResponse(
			(response) => new URL(response.url()).pathname === `/rest/credentials/${PARTNER.id}` && response.request().method() === 'PATCH',
		),
		modal.locator('[data-test-id="credential-save-button"]').click(),
	]);
	if (saved.status() !== 200) throw new Error(`the editor's save answered ${saved.status()}: ${await saved.text()}`);
	await page.close();
}

/** The editor's REST API: the credential read as the editor reads it (masked) and saved back as it is. */
async function saveThroughRestApi() {
	const shown = await rest.request('GET', `/rest/credentials/${PARTNER.id}?includeData=true`);
	await rest.updateCredential({ id: PARTNER.id, name: shown.name, type: shown.type, data: shown.data });
}

beforeAll(async () => {
	await ensureN8nInstalled();
	instance = await createInstance({ prefix: 'n8n-e2e-connect-link-' });
	apiKeyFile = path.join(instance.userFolder, 'n8n-api-key.json');
	sandbox = await startTestSandbox({ generatedCompanies: 296 });
	await instance.cli.importCredentials(connectExampleCredentials(sandbox, { n8nUrl: instance.url }));
	await importExamples(instance.cli, {
		importedIdsFile: path.join(instance.userFolder, 'imported-examples.json'),
		only: [WORKFLOW_ID],
	});
	await instance.start();
	rest = new N8nRest(instance.url);
	owner = await rest.ensureOwner();
	// The test's own key, to read executions (the connect link's key may only write credentials).
	api = new N8nPublicApi(instance.url, await rest.createApiKey('e2e-connect-link-executions'));
	browser = await launchBrowser();

	linkUrl = await setUpLink();
	// The next start keeps the key.
	await setUpLink();
	invitations = await createInvitations();

	// FR5001, its way back held: a tampered state first, then the way back itself.
	wayBack = await consent(await openConsent(invitations[0].connectLink), BOULANGERIE.companyId, { hold: true });
	const tampered = new URL(wayBack);
	const [payload, signature] = tampered.searchParams.get('state').split('.');
	const content = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
	content.invitee = { ...content.invitee, label: 'Renamed by someone else' };
	tampered.searchParams.set('state', `${Buffer.from(JSON.stringify(content)).toString('base64url')}.${signature}`);
	await tryRefusal('a tampered state', (page) => page.goto(tampered.href));
	await closeRefusals();
	const connected = await open(wayBack);
	await keepConnectedPage(connected.page, BOULANGERIE.companyId);

	// The way back again: reloaded in the same browser, then replayed by someone else.
	await connected.page.goto(wayBack);
	reload = { url: connected.page.url(), text: await connected.page.locator('body').innerText() };
	await connected.page.close();
	const replayed = await fetch(wayBack, { redirect: 'manual' });
	replay = { status: replayed.status, text: await replayed.text() };

	beforeSaves = await storedCredential();
	await tryRefusal('a junk code', async (page) => {
		const consentPage = await openConsent(invitations[1].connectLink);
		const state = new URL(consentPage.url()).searchParams.get('state');
		await consentPage.close();
		return page.goto(`${linkUrl}?${new URLSearchParams({ code: 'junk-code-0000', state })}`);
	});
	await tryRefusal("a consent for a company the invitation did not name", async (page) => {
		await page.goto(invitations[0].connectLink);
		return consent(page, HARBOUR.companyId);
	});
	await tryRefusal('an expired state', async (page) =>
		page.goto(`${linkUrl}?${new URLSearchParams({ code: 'any-code-0000', state: await expiredState(beforeSaves.connectLinkSecret) })}`),
	);
	await closeRefusals();

	await saveInEditor();
	afterEditorSave = await storedCredential();
	await saveThroughRestApi();
	afterRestSave = await storedCredential();

	// ES6002 with its invitation, made before the saves.
	const taller = await openConsent(invitations[1].connectLink);
	await consent(taller, TALLER.companyId);
	await keepConnectedPage(taller, TALLER.companyId);
	await taller.close();

	// The owner deletes the key in Settings → n8n API; the next start makes a new one.
	await rest.deleteApiKeysLabelled(PARTNER_CONNECT_DEMO.apiKeyLabel);
	await setUpLink();
	const harbour = await openConsent(`${linkUrl}?label=${encodeURIComponent(HARBOUR.queryLabel)}`);
	await consent(harbour, HARBOUR.companyId);
	await keepConnectedPage(harbour, HARBOUR.companyId);
	await harbour.close();
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await browser?.close();
	await instance?.dispose();
	await sandbox?.close();
});

test("the owner's key is kept from one start to the next, and made anew once deleted: one key of that label", async () => {
	expect(setups.map(({ newApiKey }) => newApiKey)).toEqual([true, false, true]);
	expect(setups[1].apiKey).toBe(setups[0].apiKey);
	expect(setups[2].apiKey).not.toBe(setups[0].apiKey);
	expect(setups.map(({ connectLink }) => connectLink)).toEqual(
		Array(3).fill(`${instance.url}/webhook/${PARTNER_CONNECT_DEMO.webhookId}/connect`),
	);
	const listed = await rest.request('GET', '/rest/api-keys');
	const keys = (Array.isArray(listed) ? listed : listed.items).filter(({ label }) => label === PARTNER_CONNECT_DEMO.apiKeyLabel);
	expect(keys).toHaveLength(1);
	expect(keys[0].scopes).toEqual(expect.arrayContaining([...PARTNER_CONNECT_DEMO.apiKeyScopes]));
	expect((await instance.cli.exportCredential(N8N_API.id)).data).toEqual({ url: instance.url, apiKey: setups[2].apiKey });
	expect(fs.statSync(apiKeyFile).mode & 0o777).toBe(0o600);
});

test('Create Connect Link, run by n8n, gives a signed link to the published trigger for each client', () => {
	expect(invitations).toEqual([
		{ connectLink: expect.stringMatching(/\?invitation=[\w-]+\.[\w-]+$/), label: BOULANGERIE.label, companyId: BOULANGERIE.companyId, expiresAt: expect.any(String) },
		{ connectLink: expect.stringMatching(/\?invitation=[\w-]+\.[\w-]+$/), label: TALLER.label, companyId: null, expiresAt: expect.any(String) },
	]);
	for (const { connectLink } of invitations) expect(connectLink.startsWith(`${linkUrl}?invitation=`)).toBe(true);
});

test('three companies connected: two by their invitation under its label, one by the open link under its ID (its ?label= ignored)', async () => {
	const rows = await storedCompanies();
	expect(rows.map(({ companyId, label }) => ({ companyId, label }))).toEqual([
		{ companyId: BOULANGERIE.companyId, label: EDITED_LABEL },
		{ companyId: TALLER.companyId, label: TALLER.label },
		{ companyId: HARBOUR.companyId, label: HARBOUR.companyId },
	]);
	for (const row of rows) {
		const [boundTo, token] = row.accessToken.split(':');
		expect(boundTo).toBe(row.companyId);
		await expect(introspect(sandbox, token)).resolves.toMatchObject({
			active: true,
			company_id: row.companyId,
			client_id: DEFAULT_CLIENT.clientId,
		});
	}
	expect(connectedPages.map(({ text }) => text.split('\n')[0])).toEqual([
		`Connected: ${BOULANGERIE.label} (company ${BOULANGERIE.companyId})`,
		`Connected: ${TALLER.label} (company ${TALLER.companyId})`,
		`Connected: ${HARBOUR.companyId}`,
	]);
	for (const page of connectedPages) {
		const token = rows.find((row) => row.companyId === page.companyId).accessToken.split(':')[1];
		expect(page.html).not.toContain(token);
		expect(page.url).not.toMatch(/[?&](code|state)=/);
	}
});

test('a tampered state, a junk code, a consent for another company and an expired state: a fixed page each, no row changed', () => {
	expect(refusals.map(({ what, status, text }) => ({ what, status, text }))).toEqual([
		{ what: 'a tampered state', status: 400, text: expect.stringContaining('the link was altered, or signed for another link') },
		{ what: 'a junk code', status: 400, text: expect.stringContaining('this page was already used or has expired') },
		{ what: 'a consent for a company the invitation did not name', status: 403, text: expect.stringContaining('This link was made for another company') },
		{ what: 'an expired state', status: 400, text: expect.stringContaining('Nothing was connected: the link expired') },
	]);
	for (const { rowsBefore, rowsAfter } of refusals) expect(rowsAfter).toEqual(rowsBefore);
	// The tampered state came with FR5001's code: it stayed unused, and connected FR5001 right after.
	expect(connectedPages[0].companyId).toBe(BOULANGERIE.companyId);
});

test('the way back reloaded shows the "connected" page and exchanges nothing; replayed without the browser cookie, it is refused', async () => {
	expect(reload.text).toContain(`Connected: ${BOULANGERIE.label} (company ${BOULANGERIE.companyId})`);
	expect(reload.url).not.toMatch(/[?&](code|state)=/);
	// n8n remembers that the state came back once: its address is refused, whichever browser sends it again.
	expect(replay.status).toBe(409);
	expect(replay.text).toContain('This link was already used');
	// The sandbox revokes a token whose code comes back: FR5001's first token is the one stored, and active.
	const [row] = beforeSaves.companies.company;
	expect(row.companyId).toBe(BOULANGERIE.companyId);
	const [stillStored] = (await storedCompanies()).filter(({ companyId }) => companyId === BOULANGERIE.companyId);
	expect(stillStored.accessToken).toBe(row.accessToken);
	await expect(introspect(sandbox, row.accessToken.split(':')[1])).resolves.toMatchObject({ active: true });
});

test("the link's secret survives a save of the credential in n8n's editor and through its REST API: the invitation made before still connects", () => {
	expect(beforeSaves.connectLinkSecret).toMatch(/^[\w-]{43}$/);
	expect(afterEditorSave.connectLinkSecret).toBe(beforeSaves.connectLinkSecret);
	expect(afterRestSave.connectLinkSecret).toBe(beforeSaves.connectLinkSecret);
	expect(afterEditorSave.companies.company).toEqual([{ ...beforeSaves.companies.company[0], label: EDITED_LABEL }]);
	expect(afterRestSave.companies.company).toEqual(afterEditorSave.companies.company);
	expect(afterRestSave.clientSecret).toBe(DEFAULT_CLIENT.clientSecret);
	expect(connectedPages[1].companyId).toBe(TALLER.companyId);
});

test('only the three connects started an execution, each on the connected branch, never with a code or a token', async () => {
	const executions = await api.finishedExecutions(WORKFLOW_ID, 3);
	expect(executions).toHaveLength(3);
	for (const execution of executions) expect(nodeItems(execution, TRIGGER)).toHaveLength(1);
	const items = executions
		.map((execution) => nodeItems(execution, CONNECTED_BRANCH)[0].json)
		.sort((a, b) => a.companyId.localeCompare(b.companyId));
	expect(items.map(({ connected, companyId, label, replaced }) => ({ connected, companyId, label, replaced }))).toEqual([
		{ connected: true, companyId: HARBOUR.companyId, label: HARBOUR.label, replaced: false },
		{ connected: true, ...TALLER, replaced: false },
		{ connected: true, ...BOULANGERIE, replaced: false },
	].sort((a, b) => a.companyId.localeCompare(b.companyId)));
	const recorded = JSON.stringify(executions);
	for (const row of await storedCompanies()) expect(recorded).not.toContain(row.accessToken.split(':')[1]);
	expect(recorded).not.toContain(DEFAULT_CLIENT.clientSecret);
	expect(recorded).not.toMatch(/[?&]code=/);
});

test("a workflow with the credential reads each connected company's payroll status with its own token", async () => {
	const companies = [BOULANGERIE, TALLER, HARBOUR].map(({ companyId }) => companyId);
	const workflow = chainWorkflow(
		'wfConnectedStatus',
		'Connected companies: payroll status',
		companies.map((companyId) =>
			partnerPayrollNode(companyId, { resource: 'payroll', operation: 'getStatus', companyId, month: MONTH }, PARTNER),
		),
	);
	await instance.cli.importWorkflows([workflow]);
	await sandboxControl(sandbox, 'DELETE', '/requests');
	const { ok, run } = await instance.cli.executeWorkflow(workflow.id);
	expect(ok).toBe(true);
	for (const companyId of companies) {
		expect(nodeItems(run, companyId)[0].json).toMatchObject({ companyId, status: 'completed' });
	}
	const requests = (await sandboxControl(sandbox, 'GET', '/requests')).filter((request) => request.path.startsWith('/api/'));
	expect(requests).toHaveLength(companies.length);
	for (const request of requests) expect(request.path).toContain(`/companies/${request.tokenCompanyId}/`);
});
