'use strict';
// A real n8n with the package, a test sandbox that knows its OAuth2 redirect, and a signed-in headless
// browser on its editor: what the suites that drive the editor share.
const { createInstance } = require('./instance');
const { N8nRest } = require('./rest');
const { launchBrowser, signIn } = require('./browser');
const { startTestSandbox } = require('./sandbox');

// n8n 2.8 shows a "Connect my account" button; later versions a "Connect your account" banner with a
// "Connect" button. Either starts the same OAuth2 flow.
const OAUTH_CONNECT_BUTTON =
	'[data-test-id="oauth-connect-button"], [data-test-id="oauth-not-connected-banner"] [data-test-id="quick-connect-button"]';
const OAUTH_CONNECTED_BANNER = '[data-test-id="oauth-connect-success-banner"]';

/** Starts n8n, the sandbox and the browser, signed in as the owner; `close()` stops all three. */
async function openEditorSession({ prefix, uiTimeoutMs } = {}) {
	const instance = await createInstance({ prefix });
	const session = { instance, sandbox: null, rest: null, owner: null, browser: null, page: null };
	session.close = async () => {
		await session.browser?.close();
		await instance.dispose();
		await session.sandbox?.close();
	};
	session.sandbox = await startTestSandbox({ n8nUrls: [instance.url] });
	await instance.start();
	session.rest = new N8nRest(instance.url);
	session.owner = await session.rest.ensureOwner();
	session.browser = await launchBrowser();
	session.page = await session.browser.context.newPage();
	if (uiTimeoutMs) session.page.setDefaultTimeout(uiTimeoutMs);
	await signIn(session.page, instance.url, session.owner);
	return session;
}

module.exports = { openEditorSession, OAUTH_CONNECT_BUTTON, OAUTH_CONNECTED_BANNER };
