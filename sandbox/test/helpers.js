'use strict';
// Shared helpers of the sandbox tests: start a sandbox on a free port and talk to it over real HTTP.

const { startSandbox } = require('../server');

const ALL_API_SCOPES = ['payment-files:read', 'accounting:read', 'contracts:payslips:read', 'health-insurance:read', 'pension:read'];
const DEFAULT_CLIENT = {
  clientId: 'n8n-local',
  clientSecret: 'sandbox-secret-n8n-local',
  redirectUri: 'http://127.0.0.1:5678/rest/oauth2-credential/callback',
};

function startTestSandbox(options = {}) {
  return startSandbox({ port: 0, ...options });
}

/** fetch on the API base URL with an optional bearer token. */
function api(sandbox, path, { token, method = 'GET', body, headers = {} } = {}) {
  const allHeaders = { ...headers };
  if (token) allHeaders.Authorization = `Bearer ${token}`;
  let payload = body;
  if (body !== undefined && typeof body !== 'string') {
    payload = JSON.stringify(body);
    allHeaders['Content-Type'] = allHeaders['Content-Type'] || 'application/json';
  }
  return fetch(`${sandbox.apiBaseUrl}${path}`, { method, headers: allHeaders, body: payload, redirect: 'manual' });
}

/** Control endpoint call; returns {status, body} with the JSON body parsed when there is one. */
async function control(sandbox, path, { method = 'GET', body } = {}) {
  const response = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

function token(sandbox, companyId, scopes = ALL_API_SCOPES, extra = {}) {
  return sandbox.issueToken({ companyId, scopes, ...extra }).access_token;
}

function authorizeUrl(sandbox, params) {
  const url = new URL(`${sandbox.authServerUrl}/authorize`);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

/** Posts the consent form as the browser would; returns the response (302 expected). */
function submitConsent(sandbox, params, { companyId = 'FR1001', decision = 'accept' } = {}) {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) form.set(name, value);
  form.set('company_id', companyId);
  form.set('decision', decision);
  return fetch(`${sandbox.authServerUrl}/authorize`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
}

function defaultAuthorizeParams(overrides = {}) {
  return {
    client_id: DEFAULT_CLIENT.clientId,
    redirect_uri: DEFAULT_CLIENT.redirectUri,
    response_type: 'code',
    state: 'st-123',
    scope: 'payment-files:read accounting:read',
    ...overrides,
  };
}

/** Runs consent and returns the authorization code. */
async function obtainCode(sandbox, params = {}, consent = {}) {
  const response = await submitConsent(sandbox, defaultAuthorizeParams(params), consent);
  const location = new URL(response.headers.get('location'));
  return location.searchParams.get('code');
}

/** POST /oauth/token, form-encoded by default, `json: true` for JSON, `basic: [id, secret]` for Basic. */
async function tokenRequest(sandbox, allFields, { json = false, basic } = {}) {
  const fields = Object.fromEntries(Object.entries(allFields).filter(([, value]) => value !== undefined));
  const headers = { 'Content-Type': json ? 'application/json' : 'application/x-www-form-urlencoded' };
  if (basic) headers.Authorization = `Basic ${Buffer.from(`${basic[0]}:${basic[1]}`).toString('base64')}`;
  const response = await fetch(`${sandbox.authServerUrl}/token`, {
    method: 'POST',
    headers,
    body: json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

function exchangeFields(code, overrides = {}) {
  return {
    grant_type: 'authorization_code',
    code,
    redirect_uri: DEFAULT_CLIENT.redirectUri,
    client_id: DEFAULT_CLIENT.clientId,
    client_secret: DEFAULT_CLIENT.clientSecret,
    ...overrides,
  };
}

module.exports = {
  ALL_API_SCOPES,
  DEFAULT_CLIENT,
  startTestSandbox,
  api,
  control,
  token,
  authorizeUrl,
  submitConsent,
  defaultAuthorizeParams,
  obtainCode,
  tokenRequest,
  exchangeFields,
};
