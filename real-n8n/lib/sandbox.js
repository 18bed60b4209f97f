'use strict';
// The sandbox as the tests use it: started in-process, with the default OAuth client also accepting
// the redirect address of a test n8n (which runs on a free port, not on the registered 5678).
const fs = require('node:fs');
const path = require('node:path');
const { repoRoot } = require('./paths');
const { DEFAULT_CLIENT } = require('./credentials');

const SANDBOX_DIR = path.join(repoRoot, 'sandbox');
const OAUTH_CALLBACK_PATH = '/rest/oauth2-credential/callback';

/** sandbox/clients.json, with `extraRedirectUris` registered for the default client (n8n-local). */
function clientsWithRedirects(extraRedirectUris) {
	const clients = JSON.parse(fs.readFileSync(path.join(SANDBOX_DIR, 'clients.json'), 'utf8'));
	const defaultClient = clients.find((client) => client.clientId === DEFAULT_CLIENT.clientId);
	defaultClient.redirectUris.push(...extraRedirectUris);
	return clients;
}

/** On a free port; `extraClients` are registered next to the default ones (same shape as clients.json). */
async function startTestSandbox({ n8nUrls = [], extraClients = [], ...options } = {}) {
	const { startSandbox } = require(path.join(SANDBOX_DIR, 'server.js'));
	const redirects = n8nUrls.map((url) => `${url}${OAUTH_CALLBACK_PATH}`);
	return startSandbox({ port: 0, clients: [...clientsWithRedirects(redirects), ...extraClients], ...options });
}

/** The spec's introspection call: the token in the Authorization header and in the JSON body. */
async function introspect(sandbox, token) {
	const response = await fetch(`${sandbox.authServerUrl}/introspect`, {
		method: 'POST',
		headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
		body: JSON.stringify({ token }),
	});
	if (!response.ok) throw new Error(`introspection answered ${response.status}`);
	return response.json();
}

/** A call to the sandbox's control endpoints (`/_sandbox/...`) of the sandbox at `sandbox.url`. */
async function sandboxControl(sandbox, method, controlPath, body) {
	const response = await fetch(`${sandbox.url}/_sandbox${controlPath}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} /_sandbox${controlPath} answered ${response.status}: ${text}`);
	return text ? JSON.parse(text) : null;
}

/** Tokens the sandbox holds (masked values), e.g. to check that a refused flow issued none. */
const listTokens = (sandbox, companyId) =>
	sandboxControl(sandbox, 'GET', `/tokens${companyId ? `?companyId=${encodeURIComponent(companyId)}` : ''}`);

/** API requests the sandbox received (method, path, status...). */
const listRequests = (sandbox) => sandboxControl(sandbox, 'GET', '/requests');

// ---- what the API serves, from the sandbox's seed ----------------------------------------------

/** The spec's company resource, exactly its fields. */
function companyRecord(sandbox, companyId) {
	const { id, name, country, identificationNumber, address, city, postalCode, nbActiveContracts } =
		sandbox.seed.company(companyId);
	return { id, name, country, identificationNumber, address, city, postalCode, nbActiveContracts };
}

/** Items of a document listing ('incomeTaxes' or 'autoEnrolment'): `type` on income-tax documents only. */
function listedDocuments(sandbox, companyId, listing) {
	return sandbox.seed
		.documents(companyId)
		.filter((document) => document.listing === listing)
		.map(({ listing: _listing, type, ...item }) => (listing === 'incomeTaxes' ? { ...item, type } : item));
}

/** The node's items of one company: each starts with `companyId`, the record's own fields after it. */
const ofCompany = (companyId, records) => records.map((record) => ({ companyId, ...record }));

/**
 * A client administrator opens the connect `link`, picks `companyId` on the sandbox's consent page and accepts,
 * over HTTP as a browser follows it, up to the way back: resolves its address (with the code) and the cookie
 * the link set (the state is bound to the browser that opened it).
 */
async function consentGiven(link, { companyId }) {
	const opened = await fetch(link, { redirect: 'manual' });
	if (opened.status !== 302) throw new Error(`the connect link answered ${opened.status}: ${await opened.text()}`);
	const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0];
	const authorize = new URL(opened.headers.get('location'));
	const consentPage = await (await fetch(authorize)).text();
	if (!consentPage.includes('id="consent"')) throw new Error(`no consent form at ${authorize.origin}${authorize.pathname}: ${consentPage}`);
	const form = new URLSearchParams(authorize.searchParams);
	form.set('company_id', companyId);
	form.set('decision', 'accept');
	const decided = await fetch(`${authorize.origin}${authorize.pathname}`, { method: 'POST', body: form, redirect: 'manual' });
	if (decided.status !== 302) throw new Error(`the consent form answered ${decided.status}: ${await decided.text()}`);
	return { wayBack: decided.headers.get('location'), cookie };
}

/** The browser follows a consent's way back (consentGiven): resolves the link's answer (status, Location, page). */
async function followWayBack({ wayBack, cookie }) {
	const back = await fetch(wayBack, { redirect: 'manual', headers: { cookie } });
	return { status: back.status, location: back.headers.get('location'), page: await back.text() };
}

/** consentGiven, then its way back followed: resolves the link's answer to the way back (followWayBack). */
async function consentThroughLink(link, consent) {
	return followWayBack(await consentGiven(link, consent));
}

module.exports = {
	ofCompany,
	consentGiven,
	followWayBack,
	consentThroughLink,
	startTestSandbox,
	sandboxControl,
	introspect,
	listTokens,
	listRequests,
	companyRecord,
	listedDocuments,
	OAUTH_CALLBACK_PATH,
};
