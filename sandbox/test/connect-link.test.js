'use strict';
// A partner's connect link (a redirect address registered while the sandbox runs, as in the provider's
// portal) driven for many companies: one consent per company, the company picked on the page, a new
// token per consent that replaces the company's previous one.

const {
  ALL_API_SCOPES, DEFAULT_CLIENT, startTestSandbox, api, control, authorizeUrl, defaultAuthorizeParams, tokenRequest, exchangeFields,
} = require('./helpers');

const CONNECT_LINK = 'https://n8n.partner.example/webhook/1b2c3d4e/connect';

let sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ generatedCompanies: 296 });
});
afterAll(() => sandbox.close());

const introspect = async (token) => (await fetch(`${sandbox.authServerUrl}/introspect`, {
  method: 'POST',
  headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
  body: JSON.stringify({ token }),
})).json();

/** The administrator opens the consent page (company hinted), keeps the company and accepts; returns the way back. */
async function consentThroughPage(companyId, state) {
  const params = defaultAuthorizeParams({ redirect_uri: CONNECT_LINK, state, scope: ALL_API_SCOPES.join(' '), company_hint: companyId });
  const page = await (await fetch(authorizeUrl(sandbox, params))).text();
  const form = new URLSearchParams();
  for (const [, name, value] of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.set(name, value);
  const selected = /<option value="([^"]+)" selected>/.exec(page);
  form.set('company_id', selected[1]);
  form.set('decision', 'accept');
  const response = await fetch(`${sandbox.authServerUrl}/authorize`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location'));
}

test('an unregistered redirect address is refused; registering it through control lets the flow use it', async () => {
  const before = await fetch(authorizeUrl(sandbox, defaultAuthorizeParams({ redirect_uri: CONNECT_LINK })), { redirect: 'manual' });
  expect(before.status).toBe(400);
  const registered = await control(sandbox, '/clients/redirect-uris', { method: 'POST', body: { redirectUri: CONNECT_LINK } });
  expect(registered.status).toBe(201);
  expect(registered.body).toEqual({ clientId: DEFAULT_CLIENT.clientId, redirectUris: expect.arrayContaining([DEFAULT_CLIENT.redirectUri, CONNECT_LINK]) });
  const after = await fetch(authorizeUrl(sandbox, defaultAuthorizeParams({ redirect_uri: CONNECT_LINK })), { redirect: 'manual' });
  expect(after.status).toBe(200);
  // Still exact matching: another path of the same origin is not registered.
  const other = await fetch(authorizeUrl(sandbox, defaultAuthorizeParams({ redirect_uri: `${CONNECT_LINK}/x` })), { redirect: 'manual' });
  expect(other.status).toBe(400);
});

test('registration refuses an unknown client and what is not an http(s) URL', async () => {
  for (const body of [{ clientId: 'nobody', redirectUri: CONNECT_LINK }, { redirectUri: 'not a url' }, { redirectUri: 'ftp://x.example/cb' }, {}]) {
    expect((await control(sandbox, '/clients/redirect-uris', { method: 'POST', body })).status).toBe(400);
  }
});

test('three generated companies in a row, one consent each: each code gives a token of its company; a new consent replaces the token', async () => {
  await control(sandbox, '/clients/redirect-uris', { method: 'POST', body: { redirectUri: CONNECT_LINK } });
  const tokens = {};
  for (const [index, companyId] of ['FR5050', 'ES6070', 'GB7090'].entries()) {
    const back = await consentThroughPage(companyId, `state-${index}`);
    expect(`${back.origin}${back.pathname}`).toBe(CONNECT_LINK);
    expect(back.searchParams.get('state')).toBe(`state-${index}`);
    const { status, body } = await tokenRequest(sandbox, exchangeFields(back.searchParams.get('code'), { redirect_uri: CONNECT_LINK }));
    expect(status).toBe(200);
    expect(await introspect(body.access_token)).toMatchObject({ active: true, company_id: companyId, client_id: DEFAULT_CLIENT.clientId });
    expect((await api(sandbox, `/companies/${companyId}`, { token: body.access_token })).status).toBe(200);
    tokens[companyId] = body.access_token;
  }
  const again = await consentThroughPage('ES6070', 'state-again');
  const { body } = await tokenRequest(sandbox, exchangeFields(again.searchParams.get('code'), { redirect_uri: CONNECT_LINK }));
  expect(await introspect(tokens.ES6070)).toEqual({ active: false });
  expect(await introspect(body.access_token)).toMatchObject({ active: true, company_id: 'ES6070' });
  // The other companies' tokens are untouched.
  for (const companyId of ['FR5050', 'GB7090']) expect((await introspect(tokens[companyId])).active).toBe(true);
});
