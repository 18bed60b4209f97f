'use strict';
// The package inside a running n8n (`n8n start`), seen through the editor as a user sees it: the node
// types it serves, the node's action list, and the OAuth2 "Connect" flow in headless Chromium against
// the sandbox's authorization server (refusal, tampered state, success).
const fs = require('node:fs');
const path = require('node:path');
const {
	repoRoot,
	artifactsDir,
	packageName,
	declaredTypes,
	ensureN8nInstalled,
	openEditorSession,
	OAUTH_CONNECT_BUTTON: CONNECT_BUTTON,
	OAUTH_CONNECTED_BANNER: CONNECTED_BANNER,
	introspect,
	listTokens,
	companyRecord,
	oauth2Credential,
	ALL_SCOPES,
	partnerPayrollNode,
	chainWorkflow,
	nodeItems,
	ofCompany,
} = require('../lib');

jest.setTimeout(180_000);

const SETUP_TIMEOUT_MS = 20 * 60_000; // includes installing n8n when it is missing
const OAUTH_COMPANY = 'GB3001';

let session;
let instance;
let sandbox;
let rest;
let browser;
let page;

beforeAll(async () => {
	await ensureN8nInstalled();
	session = await openEditorSession({ prefix: 'n8n-e2e-editor-' });
	({ instance, sandbox, rest, browser, page } = session);
}, SETUP_TIMEOUT_MS);

afterAll(async () => await session?.close());

/** Every `action` label of the built node's operations: what the editor's action list must show. */
function actionLabelsOfBuiltNode() {
	const { PartnerPayroll } = require(path.join(repoRoot, 'dist/nodes/PartnerPayroll/PartnerPayroll.node.js'));
	return new PartnerPayroll().description.properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) => property.options.map((option) => option.action));
}

describe('node types served by the editor', () => {
	test('lists the node, the trigger when package.json declares it, and both credentials', async () => {
		const nodeTypes = (await rest.nodeTypes()).map((type) => type.name);
		const declared = declaredTypes();
		expect(declared.nodes).toContain(`${packageName}.partnerPayroll`);
		for (const type of declared.nodes) expect(nodeTypes).toContain(type);

		const credentialTypes = (await rest.credentialTypes()).map((type) => type.name);
		expect(declared.credentials).toEqual(expect.arrayContaining(['partnerPayrollApi', 'partnerPayrollOAuth2Api']));
		for (const type of declared.credentials) expect(credentialTypes).toContain(type);
	});
});

describe('the node in the node panel', () => {
	test('shows every action of the node, as installed via npm (screenshot in test-artifacts/)', async () => {
		const panelPage = await browser.context.newPage();
		// Tall enough for the whole action list in one screenshot.
		await panelPage.setViewportSize({ width: 1440, height: 1500 });
		await panelPage.goto(`${instance.url}/workflow/new`);
		await panelPage.locator('[data-test-id="node-creator-plus-button"]').click();
		await panelPage.locator('[data-test-id="node-creator-search-bar"]').fill('Partner Payroll');
		await panelPage
			.locator('[data-test-id="item-iterator-item"]')
			.filter({ hasText: 'Partner Payroll' })
			.first()
			.click();
		const panel = panelPage.locator('[data-test-id="node-creator"]');
		const actions = actionLabelsOfBuiltNode();
		// With a trigger in the package the panel opens on its triggers; the actions are folded.
		const actionsHeader = panel.getByText(`Actions (${actions.length})`);
		await actionsHeader.waitFor();
		if (!(await panel.getByText(actions[0], { exact: true }).isVisible())) await actionsHeader.click();
		// The unfolded list renders in steps: read the panel once every action has appeared (a missing one
		// fails here, by name).
		for (const action of actions) await panel.getByText(action, { exact: true }).waitFor();

		const text = await panel.innerText();
		expect(text).toContain('Via npm');
		for (const action of actions) expect(text).toContain(action);
		if (declaredTypes().nodes.some((type) => type.endsWith('Trigger'))) {
			expect(text).not.toMatch(/No Partner Payroll Triggers available/);
		}

		fs.mkdirSync(artifactsDir, { recursive: true });
		// JPEG, not PNG: `n8n-node build` copies every *.png outside node_modules into dist/.
		await panelPage.screenshot({ path: path.join(artifactsDir, 'node-actions.jpeg'), type: 'jpeg', quality: 90 });
		await panelPage.close();
	});
});

describe('OAuth2 credential: Connect in the browser', () => {
	let credential;

	beforeAll(async () => {
		// Created through the REST API, as the credential dialog does, not connected yet.
		const record = oauth2Credential({ name: 'Partner Payroll OAuth2 (e2e)', sandbox, scopes: ALL_SCOPES });
		credential = { ...record, id: (await rest.createCredential(record)).id };
	});

	/**
	 * Open the credential afresh and click "Connect"; n8n opens the authorization server's consent page
	 * in a popup. A fresh page each time: the editor ties a popup to the open credential dialog and
	 * closes it when the dialog goes away, so no flow of an earlier test can reach into this one.
	 */
	async function openConsentPage() {
		await page.goto(`${instance.url}/home/credentials/${credential.id}`);
		await page.locator(CONNECT_BUTTON).waitFor();
		const [popup] = await Promise.all([page.waitForEvent('popup'), page.locator(CONNECT_BUTTON).click()]);
		await popup.locator('#consent').waitFor();
		return popup;
	}

	/**
	 * What n8n's callback page answers in the popup, read from the answer itself rather than from the
	 * page: the editor may close the popup once the page has told it the flow failed.
	 */
	function watchCallbackPage(popup) {
		const html = popup
			.waitForResponse((response) => isCallbackUrl(new URL(response.url())), { timeout: 60_000 })
			.then((response) => response.text());
		// Awaited by the test; a failure is reported there, not as an unhandled rejection.
		html.catch(() => {});
		return { html };
	}

	function isCallbackUrl(url) {
		return url.pathname.endsWith('/rest/oauth2-credential/callback');
	}

	/** The text a page shows: its markup without scripts, styles and tags. */
	function visibleText(html) {
		return html
			.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
			.replace(/<[^>]+>/g, ' ')
			.replace(/\s+/g, ' ')
			.trim();
	}

	/** n8n's callback page when the flow failed: the visible text of what it answered. */
	async function callbackErrorText(callbackPage, popup) {
		const html = await callbackPage.html;
		if (!popup.isClosed()) await popup.close();
		return visibleText(html);
	}

	async function storedTokenData() {
		const { data } = await instance.cli.exportCredential(credential.id);
		return data.oauthTokenData;
	}

	/** Rewrites `state` in the authorization server's redirect, as an attacker in the middle would. */
	async function tamperStateOfRedirect(popup) {
		await popup.route(`${sandbox.authServerUrl}/authorize`, async (route) => {
			if (route.request().method() !== 'POST') return route.continue();
			const response = await route.fetch({ maxRedirects: 0 });
			const location = new URL(response.headers().location);
			const state = JSON.parse(Buffer.from(location.searchParams.get('state'), 'base64').toString('utf8'));
			// Another first character, whatever the first one was (a token starting with "x" stayed unchanged).
			state.token = `${state.token.startsWith('x') ? 'y' : 'x'}${state.token.slice(1)}`;
			location.searchParams.set('state', Buffer.from(JSON.stringify(state)).toString('base64'));
			return route.fulfill({ response, headers: { ...response.headers(), location: location.toString() } });
		});
	}

	test('refusing at the consent page leaves the credential unconnected', async () => {
		const popup = await openConsentPage();
		const callbackPage = watchCallbackPage(popup);
		await popup.locator('#refuse').click();

		expect(await callbackErrorText(callbackPage, popup)).toMatch(/Failed to connect/);
		expect(await storedTokenData()).toBeUndefined();
		expect(await listTokens(sandbox)).toEqual([]);
		await expect(page.locator(CONNECT_BUTTON).isVisible()).resolves.toBe(true);
	});

	test('a state that differs from the one n8n sent is rejected, and no token is stored', async () => {
		const popup = await openConsentPage();
		await tamperStateOfRedirect(popup);
		const callbackPage = watchCallbackPage(popup);
		await popup.locator('#company').selectOption(OAUTH_COMPANY);
		await popup.locator('#accept').click();

		expect(await callbackErrorText(callbackPage, popup)).toMatch(/The OAuth callback state is invalid/);
		expect(await storedTokenData()).toBeUndefined();
		// n8n never exchanged the code it was sent.
		expect(await listTokens(sandbox)).toEqual([]);
	});

	test('accepting connects the credential: n8n holds a token of the chosen company', async () => {
		const popup = await openConsentPage();
		expect(await popup.locator('#client-id').innerText()).toBe('n8n-local');
		await popup.locator('#company').selectOption(OAUTH_COMPANY);
		await popup.locator('#accept').click();
		// The success page closes itself after 5 s; n8n 2.40's editor closes it at once.
		if (!popup.isClosed()) await popup.waitForEvent('close', { timeout: 30_000 });
		await page.locator(CONNECTED_BANNER).waitFor();

		const tokenData = await storedTokenData();
		expect(tokenData.token_type).toBe('bearer');
		const introspection = await introspect(sandbox, tokenData.access_token);
		expect(introspection).toEqual({
			active: true,
			scope: ALL_SCOPES.join(' '),
			client_id: 'n8n-local',
			company_id: OAUTH_COMPANY,
			token_type: 'bearer',
		});
	});

	test('a workflow using the connected credential reads the company of the token', async () => {
		const workflow = chainWorkflow('wfOAuthCompany', 'OAuth2 company record', [
			partnerPayrollNode('Company', { resource: 'company', operation: 'get' }, credential),
		]);
		await instance.cli.importWorkflows([workflow]);
		const { ok, run } = await instance.cli.executeWorkflow(workflow.id);

		expect(ok).toBe(true);
		const [item] = nodeItems(run, 'Company');
		expect(item.json).toEqual(ofCompany(OAUTH_COMPANY, [companyRecord(sandbox, OAUTH_COMPANY)])[0]);
	});
});
