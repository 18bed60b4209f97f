'use strict';
// Authorization-code flow, token endpoint, introspection and revocation, over HTTP.

const {
  DEFAULT_CLIENT, startTestSandbox, api, control, authorizeUrl, submitConsent, defaultAuthorizeParams,
  obtainCode, tokenRequest, exchangeFields,
} = require('./helpers');

const RESTRICTED = { clientId: 'restricted-app', clientSecret: 'sandbox-secret-restricted-app', redirectUri: 'http://127.0.0.1:9999/callback' };

let sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

function locationOf(response) {
  return new URL(response.headers.get('location'));
}

async function exchange(code, overrides, options) {
  return tokenRequest(sandbox, exchangeFields(code, overrides), options);
}

function introspect(tokenInHeader, body, contentType = 'application/json') {
  const headers = {};
  if (tokenInHeader) headers.Authorization = `Bearer ${tokenInHeader}`;
  if (body !== undefined) headers['Content-Type'] = contentType;
  return fetch(`${sandbox.authServerUrl}/introspect`, { method: 'POST', headers, body });
}

describe('GET /oauth/authorize (consent page)', () => {
  test('shows an English consent page with the company select and Accept/Refuse buttons', async () => {
    const response = await fetch(authorizeUrl(sandbox, defaultAuthorizeParams({ state: 'a b&c="d"' })));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toMatch(/<select id="company" name="company_id">/);
    for (const id of ['FR1001', 'FR1002', 'ES2001', 'GB3001']) expect(html).toContain(`<option value="${id}">`);
    expect(html).toMatch(/<button type="submit" id="accept" name="decision" value="accept">Accept<\/button>/);
    expect(html).toMatch(/<button type="submit" id="refuse" name="decision" value="refuse">Refuse<\/button>/);
    expect(html).toMatch(/<form id="consent" method="post" action="\/oauth\/authorize">/);
    expect(html).toContain('<input type="hidden" name="state" value="a b&amp;c=&quot;d&quot;">');
    expect(html).toContain('<code>accounting:read</code>');
  });

  test('unknown or missing client_id: HTML error page (400), never a redirect', async () => {
    for (const clientId of ['no-such-client', undefined]) {
      const response = await fetch(authorizeUrl(sandbox, defaultAuthorizeParams({ client_id: clientId })), { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });

  test('redirect_uri not registered for the client (or missing): HTML error page (400), never a redirect', async () => {
    for (const redirectUri of ['http://evil.example/cb', RESTRICTED.redirectUri, undefined]) {
      const response = await fetch(authorizeUrl(sandbox, defaultAuthorizeParams({ redirect_uri: redirectUri })), { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toMatch(/redirect/i);
    }
  });

  test('response_type other than code: redirect with error=unsupported_response_type and the state, no code', async () => {
    const response = await fetch(authorizeUrl(sandbox, defaultAuthorizeParams({ response_type: 'token' })), { redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = locationOf(response);
    expect(`${location.origin}${location.pathname}`).toBe(DEFAULT_CLIENT.redirectUri);
    expect(location.searchParams.get('error')).toBe('unsupported_response_type');
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.has('code')).toBe(false);
  });

  test('missing response_type: redirect with error=invalid_request', async () => {
    const response = await fetch(authorizeUrl(sandbox, defaultAuthorizeParams({ response_type: undefined })), { redirect: 'manual' });
    expect(locationOf(response).searchParams.get('error')).toBe('invalid_request');
  });

  test('scope outside the client allowed list: redirect with error=invalid_scope', async () => {
    const restricted = await fetch(authorizeUrl(sandbox, {
      client_id: RESTRICTED.clientId, redirect_uri: RESTRICTED.redirectUri, response_type: 'code', state: 's', scope: 'payment-files:read pension:read',
    }), { redirect: 'manual' });
    expect(restricted.status).toBe(302);
    expect(locationOf(restricted).searchParams.get('error')).toBe('invalid_scope');
    expect(locationOf(restricted).searchParams.get('state')).toBe('s');
    const unknown = await fetch(authorizeUrl(sandbox, defaultAuthorizeParams({ scope: 'accounting:read admin:all' })), { redirect: 'manual' });
    expect(locationOf(unknown).searchParams.get('error')).toBe('invalid_scope');
    expect(locationOf(unknown).searchParams.has('code')).toBe(false);
  });
});

describe('POST /oauth/authorize (decision)', () => {
  test('accept: redirect to redirect_uri with a code and the unchanged state', async () => {
    const state = 'xyz é/?&=+ 42';
    const response = await submitConsent(sandbox, defaultAuthorizeParams({ state }), { companyId: 'GB3001' });
    expect(response.status).toBe(302);
    const location = locationOf(response);
    expect(`${location.origin}${location.pathname}`).toBe(DEFAULT_CLIENT.redirectUri);
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(location.searchParams.get('state')).toBe(state);
  });

  test('no state sent: no state returned', async () => {
    const response = await submitConsent(sandbox, defaultAuthorizeParams({ state: undefined }));
    expect(locationOf(response).searchParams.has('state')).toBe(false);
    expect(locationOf(response).searchParams.has('code')).toBe(true);
  });

  test('refuse: redirect with error=access_denied and the state, never a code', async () => {
    const response = await submitConsent(sandbox, defaultAuthorizeParams(), { decision: 'refuse' });
    expect(response.status).toBe(302);
    const location = locationOf(response);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.has('code')).toBe(false);
  });

  test('the posted parameters are validated again (tampered redirect_uri, unknown company, no decision)', async () => {
    const tampered = await submitConsent(sandbox, defaultAuthorizeParams({ redirect_uri: 'http://evil.example/cb' }));
    expect(tampered.status).toBe(400);
    expect(tampered.headers.get('location')).toBeNull();
    const unknownCompany = await submitConsent(sandbox, defaultAuthorizeParams(), { companyId: 'XX9999' });
    expect(unknownCompany.status).toBe(400);
    const noDecision = await submitConsent(sandbox, defaultAuthorizeParams(), { decision: 'maybe' });
    expect(noDecision.status).toBe(400);
  });

  test('scopes separated by spaces, "+", "%20" or commas are all understood', async () => {
    const codes = [];
    for (const scope of ['payment-files:read pension:read', 'payment-files:read,pension:read', 'payment-files:read, pension:read']) {
      codes.push(await obtainCode(sandbox, { scope }, { companyId: 'GB3001' }));
    }
    // A raw query with "+" and "%20" as separators, consent page then accept.
    const raw = `${sandbox.authServerUrl}/authorize?client_id=n8n-local&redirect_uri=${encodeURIComponent(DEFAULT_CLIENT.redirectUri)}&response_type=code&scope=payment-files:read+pension:read%20accounting:read`;
    const page = await fetch(raw);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('value="payment-files:read pension:read accounting:read"');
    for (const code of codes) {
      const { status, body } = await exchange(code);
      expect(status).toBe(200);
      const info = await (await introspect(body.access_token, JSON.stringify({ token: body.access_token }))).json();
      expect(info.scope).toBe('payment-files:read pension:read');
    }
  });
});

describe('POST /oauth/token', () => {
  test('form-encoded exchange answers exactly {access_token, token_type: "bearer"}, no-store; the token works for the chosen company only', async () => {
    const code = await obtainCode(sandbox, {}, { companyId: 'ES2001' });
    const { status, headers, body } = await exchange(code);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['access_token', 'token_type']);
    expect(body.token_type).toBe('bearer');
    expect(headers.get('cache-control')).toBe('no-store');
    expect((await api(sandbox, '/companies/ES2001', { token: body.access_token })).status).toBe(200);
    expect((await api(sandbox, '/companies/FR1001', { token: body.access_token })).status).toBe(404);
  });

  test('JSON body is accepted too', async () => {
    const { status, body } = await exchange(await obtainCode(sandbox), {}, { json: true });
    expect(status).toBe(200);
    expect(body.token_type).toBe('bearer');
  });

  test('client credentials through HTTP Basic are accepted (with or without client_id in the body)', async () => {
    const basic = [DEFAULT_CLIENT.clientId, DEFAULT_CLIENT.clientSecret];
    const withoutId = await exchange(await obtainCode(sandbox), { client_id: undefined, client_secret: undefined }, { basic });
    expect(withoutId.status).toBe(200);
    const withId = await exchange(await obtainCode(sandbox), { client_secret: undefined }, { basic });
    expect(withId.status).toBe(200);
  });

  test('an empty Authorization header with credentials in the body works (n8n "body" mode)', async () => {
    const response = await fetch(`${sandbox.authServerUrl}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: '' },
      body: new URLSearchParams(exchangeFields(await obtainCode(sandbox))).toString(),
    });
    expect(response.status).toBe(200);
  });

  test('Basic credentials that disagree with the body: 400 invalid_request', async () => {
    const { status, body } = await exchange(await obtainCode(sandbox), { client_id: RESTRICTED.clientId, client_secret: undefined }, { basic: [DEFAULT_CLIENT.clientId, DEFAULT_CLIENT.clientSecret] });
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_request');
  });

  test('wrong secret, unknown client or no credentials: 401 invalid_client', async () => {
    const code = await obtainCode(sandbox);
    for (const overrides of [{ client_secret: 'wrong' }, { client_id: 'ghost' }, { client_id: undefined, client_secret: undefined }, { client_secret: undefined }]) {
      const { status, body } = await exchange(code, overrides);
      expect(status).toBe(401);
      expect(body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    }
    const basic = await exchange(code, { client_id: undefined, client_secret: undefined }, { basic: [DEFAULT_CLIENT.clientId, 'wrong'] });
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).toMatch(/^Basic/);
    // The failed attempts did not consume the code.
    expect((await exchange(code)).status).toBe(200);
  });

  test('grant_type other than authorization_code: unsupported_grant_type; missing: invalid_request', async () => {
    const code = await obtainCode(sandbox);
    const other = await exchange(code, { grant_type: 'client_credentials' });
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('unsupported_grant_type');
    const missing = await exchange(code, { grant_type: undefined });
    expect(missing.body.error).toBe('invalid_request');
  });

  test('missing code: invalid_request; unknown code: invalid_grant', async () => {
    expect((await exchange(undefined)).body.error).toBe('invalid_request');
    const unknown = await exchange('not-a-code');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('invalid_grant');
  });

  test('a code is single use; reusing it fails and revokes the token issued with it', async () => {
    const code = await obtainCode(sandbox);
    const first = await exchange(code);
    expect(first.status).toBe(200);
    expect((await api(sandbox, '/companies/FR1001', { token: first.body.access_token })).status).toBe(200);
    const second = await exchange(code);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    expect((await api(sandbox, '/companies/FR1001', { token: first.body.access_token })).status).toBe(401);
  });

  test('a code is bound to its client', async () => {
    const code = await obtainCode(sandbox);
    const { status, body } = await exchange(code, { client_id: RESTRICTED.clientId, client_secret: RESTRICTED.clientSecret, redirect_uri: RESTRICTED.redirectUri });
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_grant');
  });

  test('redirect_uri must equal the one sent to /authorize (another registered one is refused too)', async () => {
    const code = await obtainCode(sandbox);
    const other = await exchange(code, { redirect_uri: 'http://localhost:5678/rest/oauth2-credential/callback' });
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('invalid_grant');
    const missing = await exchange(code, { redirect_uri: undefined });
    expect(missing.body.error).toBe('invalid_request');
    expect((await exchange(code)).status).toBe(200);
  });

  test('an expired code is refused', async () => {
    const shortLived = await startTestSandbox({ codeTtlMs: 30 });
    try {
      const response = await submitConsent(shortLived, defaultAuthorizeParams());
      const code = new URL(response.headers.get('location')).searchParams.get('code');
      await new Promise((resolve) => setTimeout(resolve, 80));
      const { status, body } = await tokenRequest(shortLived, exchangeFields(code));
      expect(status).toBe(400);
      expect(body.error).toBe('invalid_grant');
      expect(body.error_description).toMatch(/expired/);
    } finally {
      await shortLived.close();
    }
  });

  test('unsupported body type: 400 invalid_request; GET: 405', async () => {
    const response = await fetch(`${sandbox.authServerUrl}/token`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'code=x' });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('invalid_request');
    expect((await fetch(`${sandbox.authServerUrl}/token`)).status).toBe(405);
  });

  test('one token per company and client: a new token deletes the previous one, other companies and clients keep theirs', async () => {
    const first = (await exchange(await obtainCode(sandbox, {}, { companyId: 'FR1001' }))).body.access_token;
    const otherCompany = (await exchange(await obtainCode(sandbox, {}, { companyId: 'FR1002' }))).body.access_token;
    const restrictedCode = await obtainCode(sandbox, { client_id: RESTRICTED.clientId, redirect_uri: RESTRICTED.redirectUri, scope: 'accounting:read' }, { companyId: 'FR1001' });
    const otherClient = (await exchange(restrictedCode, { client_id: RESTRICTED.clientId, client_secret: RESTRICTED.clientSecret, redirect_uri: RESTRICTED.redirectUri })).body.access_token;
    const second = (await exchange(await obtainCode(sandbox, {}, { companyId: 'FR1001' }))).body.access_token;
    expect(second).not.toBe(first);
    expect((await api(sandbox, '/companies/FR1001', { token: first })).status).toBe(401);
    expect((await api(sandbox, '/companies/FR1001', { token: second })).status).toBe(200);
    expect((await api(sandbox, '/companies/FR1002', { token: otherCompany })).status).toBe(200);
    expect((await api(sandbox, '/companies/FR1001', { token: otherClient })).status).toBe(200);
    // The control endpoint follows the same rule.
    const viaControl = await control(sandbox, '/tokens', { method: 'POST', body: { companyId: 'FR1001', scopes: 'accounting:read' } });
    expect(viaControl.status).toBe(201);
    expect((await api(sandbox, '/companies/FR1001', { token: second })).status).toBe(401);
    expect((await api(sandbox, '/companies/FR1001', { token: viaControl.body.access_token })).status).toBe(200);
  });
});

describe('POST /oauth/introspect', () => {
  let accessToken;
  beforeEach(async () => {
    accessToken = (await exchange(await obtainCode(sandbox, {}, { companyId: 'GB3001' }))).body.access_token;
  });

  test('token in the header and in a JSON body: the token description', async () => {
    const response = await introspect(accessToken, JSON.stringify({ token: accessToken }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      active: true,
      scope: 'payment-files:read accounting:read',
      client_id: 'n8n-local',
      company_id: 'GB3001',
      token_type: 'bearer',
    });
  });

  test('a form-encoded body is accepted', async () => {
    const response = await introspect(accessToken, `token=${encodeURIComponent(accessToken)}`, 'application/x-www-form-urlencoded');
    expect(response.status).toBe(200);
    expect((await response.json()).active).toBe(true);
  });

  test('header only: 400 with an error body; body only or nothing: 401', async () => {
    const headerOnly = await introspect(accessToken, undefined);
    expect(headerOnly.status).toBe(400);
    expect(await headerOnly.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    const bodyOnly = await introspect(null, JSON.stringify({ token: accessToken }));
    expect(bodyOnly.status).toBe(401);
    expect((await bodyOnly.json()).error).toBe('invalid_token');
    expect((await introspect(null, undefined)).status).toBe(401);
  });

  test('revoked or unknown token: {active: false}', async () => {
    await control(sandbox, '/tokens/revoke', { method: 'POST', body: { token: accessToken } });
    const revoked = await introspect(accessToken, JSON.stringify({ token: accessToken }));
    expect(await revoked.json()).toEqual({ active: false });
    const unknown = await introspect('whatever', JSON.stringify({ token: 'unknown-token' }));
    expect(await unknown.json()).toEqual({ active: false });
  });

  test('company API keys can be introspected (no client)', async () => {
    const key = sandbox.issueToken({ companyId: 'FR1001', scopes: ['accounting:read'], kind: 'apiKey' }).access_token;
    const info = await (await introspect(key, JSON.stringify({ token: key }))).json();
    expect(info).toEqual({ active: true, scope: 'accounting:read', client_id: null, company_id: 'FR1001', token_type: 'bearer' });
  });
});

describe('revocation', () => {
  test('a revoked token gets 401 on the API (by token or by company and client)', async () => {
    const byToken = (await exchange(await obtainCode(sandbox, {}, { companyId: 'FR1001' }))).body.access_token;
    expect((await api(sandbox, '/companies/FR1001', { token: byToken })).status).toBe(200);
    expect((await control(sandbox, '/tokens/revoke', { method: 'POST', body: { token: byToken } })).body).toEqual({ revoked: 1 });
    const response = await api(sandbox, '/companies/FR1001', { token: byToken });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ code: 401, error: 'Unauthorized' });

    const byCompany = (await exchange(await obtainCode(sandbox, {}, { companyId: 'FR1002' }))).body.access_token;
    expect((await control(sandbox, '/tokens/revoke', { method: 'POST', body: { companyId: 'FR1002', clientId: 'n8n-local' } })).body).toEqual({ revoked: 1 });
    expect((await api(sandbox, '/companies/FR1002', { token: byCompany })).status).toBe(401);
  });
});
