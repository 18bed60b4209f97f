'use strict';
// startSandbox({ stateFile }): issued tokens and registered webhook endpoints survive a restart; a reset
// empties the file; without the option nothing is written.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {
  ALL_API_SCOPES,
  startTestSandbox,
  api,
  control,
  obtainCode,
  tokenRequest,
  exchangeFields,
} = require('./helpers');

const SECRET = 'whsec_c3RhdGUtZmlsZS10ZXN0LXNlY3JldC0wMQ==';
const ROTATED_SECRET = 'whsec_c3RhdGUtZmlsZS10ZXN0LXNlY3JldC0wMg==';

let folder;
let stateFile;
let sandbox = null;
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-state-'));
  stateFile = path.join(folder, 'demo', 'sandbox-state.json');
});
afterEach(async () => {
  if (sandbox) await sandbox.close();
  sandbox = null;
  fs.rmSync(folder, { recursive: true, force: true });
});

async function restart(options = {}) {
  if (sandbox) await sandbox.close();
  sandbox = await startTestSandbox({ stateFile, ...options });
  return sandbox;
}

/** An OAuth token for FR1002 through consent and code exchange, as n8n's Connect gets one. */
async function connectThroughOAuth() {
  const code = await obtainCode(sandbox, { scope: ALL_API_SCOPES.join(' ') }, { companyId: 'FR1002' });
  const { status, body } = await tokenRequest(sandbox, exchangeFields(code));
  expect(status).toBe(200);
  return body.access_token;
}

async function introspection(token) {
  const response = await fetch(`${sandbox.authServerUrl}/introspect`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  return response.json();
}

test('an OAuth token, an API key and a rotated webhook endpoint are there again after a restart', async () => {
  await restart();
  const oauthToken = await connectThroughOAuth();
  const created = await control(sandbox, '/tokens', { method: 'POST', body: { companyId: 'GB3001', scopes: ['pension:read'], kind: 'apiKey' } });
  const apiKey = created.body.access_token;
  const endpoint = (await control(sandbox, '/webhooks', { method: 'POST', body: { url: 'http://127.0.0.1:9/hook', secret: SECRET } })).body;
  await control(sandbox, '/webhooks/rotate', { method: 'POST', body: { endpointId: endpoint.id, secret: ROTATED_SECRET } });
  const tokensBefore = (await control(sandbox, '/tokens')).body;
  const endpointsBefore = (await control(sandbox, '/webhooks')).body;

  await restart();

  expect(await introspection(oauthToken)).toMatchObject({ active: true, company_id: 'FR1002' });
  expect((await api(sandbox, '/companies/FR1002', { token: oauthToken })).status).toBe(200);
  expect((await api(sandbox, '/companies/GB3001/auto-enrolment-documents', { token: apiKey })).status).toBe(200);
  expect((await control(sandbox, '/tokens')).body).toEqual(tokensBefore);
  expect((await control(sandbox, '/webhooks')).body).toEqual(endpointsBefore);
  expect(endpointsBefore).toEqual([expect.objectContaining({ id: 'ep_1', secret: ROTATED_SECRET, previousSecrets: [expect.objectContaining({ secret: SECRET })] })]);
  // New endpoints go on numbering after the saved ones.
  expect((await control(sandbox, '/webhooks', { method: 'POST', body: { url: 'http://127.0.0.1:9/other' } })).body.id).toBe('ep_2');
});

test('a revocation and a replacing OAuth token are saved too', async () => {
  await restart();
  const first = await connectThroughOAuth();
  const second = await connectThroughOAuth(); // one token per company and client: replaces the first
  const apiKey = sandbox.issueToken({ companyId: 'ES2001', scopes: ALL_API_SCOPES, kind: 'apiKey' }).access_token;
  await control(sandbox, '/tokens/revoke', { method: 'POST', body: { token: apiKey } });

  await restart();

  expect(await introspection(first)).toEqual({ active: false });
  expect(await introspection(second)).toMatchObject({ active: true, company_id: 'FR1002' });
  expect(await introspection(apiKey)).toEqual({ active: false });
});

test('the file is private, valid JSON, and a reset leaves only the tokens given at start', async () => {
  await restart({ initialTokens: [{ token: 'given-at-start-fr1001', companyId: 'FR1001', scopes: ALL_API_SCOPES, kind: 'apiKey' }] });
  const oauthToken = await connectThroughOAuth();
  await control(sandbox, '/webhooks', { method: 'POST', body: { url: 'http://127.0.0.1:9/hook', secret: SECRET } });
  expect(fs.statSync(stateFile).mode & 0o777).toBe(0o600);
  const saved = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
  expect(saved.tokens.map((token) => token.companyId).sort()).toEqual(['FR1001', 'FR1002']);
  expect(saved.webhookEndpoints).toHaveLength(1);
  expect(fs.readdirSync(path.dirname(stateFile))).toEqual(['sandbox-state.json']); // no temporary file left

  expect((await control(sandbox, '/reset', { method: 'POST' })).status).toBe(200);
  const afterReset = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
  expect(afterReset.tokens.map((token) => token.token)).toEqual(['given-at-start-fr1001']);
  expect(afterReset.webhookEndpoints).toEqual([]);

  await restart();
  expect(await introspection(oauthToken)).toEqual({ active: false });
  expect(await introspection('given-at-start-fr1001')).toMatchObject({ active: true, company_id: 'FR1001' });
  expect((await control(sandbox, '/webhooks')).body).toEqual([]);
});

test('a token given at start wins over a saved token of the same company and client', async () => {
  await restart();
  const saved = await connectThroughOAuth();
  await restart({ initialTokens: [{ token: 'given-fr1002', companyId: 'FR1002', scopes: ALL_API_SCOPES }] });
  expect(await introspection(saved)).toEqual({ active: false });
  expect(await introspection('given-fr1002')).toMatchObject({ active: true, company_id: 'FR1002' });
});

test('a damaged state file stops the start with its path; a saved token of an unknown company is dropped', async () => {
  fs.mkdirSync(path.dirname(stateFile), { recursive: true });
  fs.writeFileSync(stateFile, '{"version":1,');
  await expect(restart()).rejects.toThrow(`State file ${stateFile} is not valid JSON`);

  const token = (companyId) => ({ token: `saved-${companyId}`, companyId, clientId: null, scopes: ['pension:read'], kind: 'apiKey', createdAt: '2026-11-24T10:00:00.000Z' });
  fs.writeFileSync(stateFile, JSON.stringify({ version: 1, tokens: [token('XX9999'), token('GB3001')], webhookEndpoints: [] }));
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
  try {
    await restart();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('a saved token of XX9999 is dropped'));
    expect(warn.mock.calls.join('\n')).not.toContain('saved-XX9999');
  } finally {
    warn.mockRestore();
  }
  expect((await control(sandbox, '/tokens')).body).toEqual([expect.objectContaining({ companyId: 'GB3001', createdAt: '2026-11-24T10:00:00.000Z' })]);
});

test('without a state file nothing is written', async () => {
  sandbox = await startTestSandbox();
  await connectThroughOAuth();
  await control(sandbox, '/webhooks', { method: 'POST', body: { url: 'http://127.0.0.1:9/hook' } });
  expect(fs.readdirSync(folder)).toEqual([]);
});
