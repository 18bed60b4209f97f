'use strict';
// Control endpoints under /_sandbox, the JS interface of startSandbox, and the request log.

const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const path = require('node:path');
const { ALL_API_SCOPES, startTestSandbox, api, control, token } = require('./helpers');

const FIXED = 'sbx_fixed_demo_token_0001';

let sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ initialTokens: [{ token: FIXED, companyId: 'FR1001', scopes: ALL_API_SCOPES }] });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const status = (t, month = '202611', companyId = 'FR1001') => api(sandbox, `/companies/${companyId}/payroll-status?date=${month}`, { token: t }).then((r) => r.json());

describe('JS interface', () => {
  test('addresses: origin, API base with /api/v1, authorization server with /oauth', () => {
    expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}`);
    expect(sandbox.apiBaseUrl).toBe(`${sandbox.url}/api/v1`);
    expect(sandbox.authServerUrl).toBe(`${sandbox.url}/oauth`);
  });

  test('seed view: companies, months, frozen values', () => {
    expect(sandbox.seed.companyIds).toEqual(['FR1001', 'FR1002', 'ES2001', 'GB3001']);
    expect(sandbox.seed.completedMonths).toEqual(['202607', '202608', '202609', '202610']);
    expect(sandbox.seed.months.map((m) => m.month)).toEqual(['202607', '202608', '202609', '202610', '202611', '202612']);
    expect(Object.isFrozen(sandbox.seed.companies[0])).toBe(true);
    expect(sandbox.seed.payrollStatus('FR1001', '202610')).toEqual({ status: 'completed', executionEndDate: '2026-10-28T17:42:05.000Z' });
    expect(sandbox.seed.documents('GB3001').map((d) => d.documentId)).toContain('gb3001-payslip-202607-001');
    const copy = sandbox.seed.paymentFile('FR1001', '202607');
    copy.fill(0);
    expect(sandbox.seed.paymentFile('FR1001', '202607').equals(copy)).toBe(false);
  });

  test('seed bytes are identical in a separate process (no randomness between runs)', () => {
    const script = `
      const { createSeedView } = require('./seed-view');
      const { loadClients } = require('./clients');
      const seed = createSeedView({ knobs: { accountingLines: null, paymentFileBytes: null }, clients: loadClients() });
      const hash = (b) => require('crypto').createHash('sha256').update(b).digest('hex');
      console.log(JSON.stringify([hash(seed.paymentFile('FR1001', '202608')), hash(seed.accountingCsv('FR1001', '202608')), hash(seed.document('GB3001', 'gb3001-p45-2026-005'))]));`;
    const output = execFileSync(process.execPath, ['-e', script], { cwd: path.join(__dirname, '..') }).toString();
    const hash = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');
    expect(JSON.parse(output)).toEqual([
      hash(sandbox.seed.paymentFile('FR1001', '202608')),
      hash(sandbox.seed.accountingCsv('FR1001', '202608')),
      hash(sandbox.seed.document('GB3001', 'gb3001-p45-2026-005')),
    ]);
  });

  test('initialTokens work and come back after reset', async () => {
    expect((await api(sandbox, '/companies/FR1001', { token: FIXED })).status).toBe(200);
    sandbox.issueToken({ companyId: 'FR1001', scopes: [] }); // replaces FIXED (same company, same client)
    expect((await api(sandbox, '/companies/FR1001', { token: FIXED })).status).toBe(401);
    await control(sandbox, '/reset', { method: 'POST' });
    expect((await api(sandbox, '/companies/FR1001', { token: FIXED })).status).toBe(200);
  });

  test('issueToken refuses unknown companies, clients, kinds and scopes outside the client list', () => {
    expect(() => sandbox.issueToken({ companyId: 'ZZ1', scopes: [] })).toThrow(/companyId/);
    expect(() => sandbox.issueToken({ companyId: 'FR1001', scopes: [], clientId: 'ghost' })).toThrow(/clientId/);
    expect(() => sandbox.issueToken({ companyId: 'FR1001', scopes: [], kind: 'magic' })).toThrow(/kind/);
    expect(() => sandbox.issueToken({ companyId: 'FR1001', scopes: ['pension:read'], clientId: 'restricted-app' })).toThrow(/pension:read/);
  });
});

describe('POST /_sandbox/reset', () => {
  test('returns to the seed: tokens, statuses, declarations, faults, request log', async () => {
    const t = token(sandbox, 'FR1002');
    await control(sandbox, '/payroll-status', { method: 'POST', body: { companyId: 'FR1002', month: '202611', status: 'completed' } });
    await api(sandbox, '/companies/FR1002/billing-declarations', { method: 'POST', token: t, body: { monthOfApplication: '202607', quantityByProducts: [{ productName: 'p', quantity: 1 }] } });
    await control(sandbox, '/faults', { method: 'POST', body: { type: 'status', status: 500, path: '/nothing', count: 3 } });
    const reset = await control(sandbox, '/reset', { method: 'POST' });
    expect(reset).toMatchObject({ status: 200, body: { reset: true, accountingLines: null, paymentFileBytes: null } });
    expect((await api(sandbox, '/companies/FR1002', { token: t })).status).toBe(401);
    expect(await status(FIXED, '202611')).toEqual({ status: 'not_completed', executionEndDate: null });
    expect((await control(sandbox, '/billing-declarations')).body).toEqual([]);
    expect((await control(sandbox, '/faults')).body).toEqual([]);
    // Only the two API calls made after the reset are logged.
    expect((await control(sandbox, '/requests')).body.map((entry) => entry.path)).toEqual(['/api/v1/companies/FR1002', '/api/v1/companies/FR1001/payroll-status']);
  });

  test('400 for a bad knob value', async () => {
    expect((await control(sandbox, '/reset', { method: 'POST', body: { accountingLines: -1 } })).status).toBe(400);
  });
});

describe('/_sandbox/payroll-status', () => {
  test('completed with a date, completed without a date (now), back to not_completed', async () => {
    const withDate = await control(sandbox, '/payroll-status', { method: 'POST', body: { companyId: 'FR1001', month: '202611', status: 'completed', executionEndDate: '2026-11-27T09:00:00.000Z' } });
    expect(withDate.body).toEqual({ companyId: 'FR1001', month: '202611', status: 'completed', executionEndDate: '2026-11-27T09:00:00.000Z' });
    expect(await status(FIXED)).toEqual({ status: 'completed', executionEndDate: '2026-11-27T09:00:00.000Z' });

    const before = Date.now();
    await control(sandbox, '/payroll-status', { method: 'POST', body: { companyId: 'FR1001', month: '202612', status: 'completed' } });
    const now = await status(FIXED, '202612');
    expect(Date.parse(now.executionEndDate)).toBeGreaterThanOrEqual(before - 1000);
    expect(now.executionEndDate).toMatch(/Z$/);

    await control(sandbox, '/payroll-status', { method: 'POST', body: { companyId: 'FR1001', month: '202611', status: 'not_completed' } });
    expect(await status(FIXED)).toEqual({ status: 'not_completed', executionEndDate: null });
    expect((await control(sandbox, '/payroll-status?companyId=FR1001&month=202612')).body.status).toBe('completed');
  });

  test.each([
    [{ companyId: 'FR1001', month: '2026-11', status: 'completed' }, 400],
    [{ companyId: 'FR1001', month: '202611', status: 'done' }, 400],
    [{ companyId: 'FR1001', month: '202611', status: 'completed', executionEndDate: 'yesterday' }, 400],
    [{ companyId: 'FR1001', month: '202611', status: 'not_completed', executionEndDate: '2026-11-27T09:00:00.000Z' }, 400],
    [{ companyId: 'XX0000', month: '202611', status: 'completed' }, 404],
  ])('refuses %j with %i', async (body, expected) => {
    const response = await control(sandbox, '/payroll-status', { method: 'POST', body });
    expect(response.status).toBe(expected);
    expect(response.body).toMatchObject({ code: expected, error: expect.any(String), details: expect.any(String) });
  });

  test('an array switches several statuses in one request; one refused change leaves every status as it was', async () => {
    const endDate = '2026-11-27T09:00:00.000Z';
    const refused = await control(sandbox, '/payroll-status', { method: 'POST', body: [
      { companyId: 'FR1002', month: '202611', status: 'completed', executionEndDate: endDate },
      { companyId: 'XX0000', month: '202611', status: 'completed' },
    ] });
    expect(refused.status).toBe(404);
    expect((await control(sandbox, '/payroll-status?companyId=FR1002&month=202611')).body.status).toBe('not_completed');

    const both = await control(sandbox, '/payroll-status', { method: 'POST', body: [
      { companyId: 'FR1001', month: '202611', status: 'completed', executionEndDate: endDate },
      { companyId: 'FR1002', month: '202611', status: 'completed', executionEndDate: endDate },
    ] });
    expect(both.body).toEqual(['FR1001', 'FR1002'].map((companyId) => ({ companyId, month: '202611', status: 'completed', executionEndDate: endDate })));
    expect(await status(FIXED)).toEqual({ status: 'completed', executionEndDate: endDate });
    expect((await control(sandbox, '/payroll-status?companyId=FR1002&month=202611')).body).toMatchObject({ status: 'completed', executionEndDate: endDate });
  });
});

describe('/_sandbox/tokens', () => {
  test('issues tokens from an array or a space-separated string, lists them masked, revokes them', async () => {
    const created = await control(sandbox, '/tokens', { method: 'POST', body: { companyId: 'GB3001', scopes: 'pension:read contracts:payslips:read' } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(['access_token', 'token_type']);
    const t = created.body.access_token;
    expect((await api(sandbox, '/companies/GB3001/auto-enrolment-documents', { token: t })).status).toBe(200);
    expect((await api(sandbox, '/companies/GB3001/payment-files?date=202607', { token: t })).status).toBe(403);

    const key = await control(sandbox, '/tokens', { method: 'POST', body: { companyId: 'GB3001', scopes: ['contracts:read'], kind: 'apiKey' } });
    const listed = (await control(sandbox, '/tokens?companyId=GB3001')).body;
    expect(listed).toHaveLength(2);
    expect(listed.find((entry) => entry.kind === 'oauth')).toMatchObject({ token: `…${t.slice(-4)}`, companyId: 'GB3001', clientId: 'n8n-local', scopes: ['pension:read', 'contracts:payslips:read'] });
    expect(listed.find((entry) => entry.kind === 'apiKey')).toMatchObject({ clientId: null, scopes: ['contracts:read'] });
    expect(JSON.stringify(listed)).not.toContain(t);

    expect((await control(sandbox, '/tokens/revoke', { method: 'POST', body: { token: key.body.access_token } })).body).toEqual({ revoked: 1 });
    expect((await control(sandbox, '/tokens/revoke', { method: 'POST', body: { token: 'unknown' } })).body).toEqual({ revoked: 0 });
    expect((await control(sandbox, '/tokens/revoke', { method: 'POST', body: {} })).status).toBe(400);
  });

  test('a token for another client does not replace the default client token', async () => {
    const mine = token(sandbox, 'ES2001');
    await control(sandbox, '/tokens', { method: 'POST', body: { companyId: 'ES2001', scopes: ['accounting:read'], clientId: 'restricted-app' } });
    expect((await api(sandbox, '/companies/ES2001', { token: mine })).status).toBe(200);
  });

  test('400 for unknown company, unknown client or a scope outside the client list', async () => {
    for (const body of [{ companyId: 'XX', scopes: [] }, { companyId: 'FR1001', scopes: [], clientId: 'ghost' }, { companyId: 'FR1001', scopes: ['pension:read'], clientId: 'restricted-app' }, { companyId: 'FR1001', scopes: ['root'], kind: 'apiKey' }]) {
      expect((await control(sandbox, '/tokens', { method: 'POST', body })).status).toBe(400);
    }
  });
});

describe('/_sandbox/requests', () => {
  test('logs API and OAuth requests (not control ones) with masked credentials; DELETE clears', async () => {
    await api(sandbox, '/companies/FR1001/payroll-status?date=202607&x=1&x=2', { token: FIXED });
    await fetch(`${sandbox.authServerUrl}/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code' });
    await control(sandbox, '/seed');
    const log = (await control(sandbox, '/requests')).body;
    expect(log).toHaveLength(2);
    expect(log[0]).toEqual({
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      method: 'GET',
      path: '/api/v1/companies/FR1001/payroll-status',
      query: { date: '202607', x: ['1', '2'] },
      status: 200,
      authorization: `Bearer …${FIXED.slice(-4)}`,
      tokenCompanyId: 'FR1001',
      tokenClientId: 'n8n-local',
      contentType: null,
      fault: null,
      connection: expect.any(Number),
    });
    expect(log[1]).toMatchObject({ method: 'POST', path: '/oauth/token', status: 401, authorization: null, tokenCompanyId: null, tokenClientId: null, contentType: 'application/x-www-form-urlencoded' });
    expect(JSON.stringify(log)).not.toContain(FIXED);
    expect((await control(sandbox, '/requests', { method: 'DELETE' })).status).toBe(204);
    expect((await control(sandbox, '/requests')).body).toEqual([]);
  });
});

describe('/_sandbox/requests: connection numbers', () => {
  const http = require('node:http');
  const get = (agent, headers = {}) => new Promise((resolve, reject) => {
    const request = http.get(`${sandbox.apiBaseUrl}/companies/FR1001/payroll-status?date=202607`, { agent, headers: { Authorization: `Bearer ${FIXED}`, ...headers } }, (response) => {
      response.resume();
      response.on('end', resolve);
    });
    request.on('error', reject);
  });

  test('requests on one kept-alive connection share its number; new connections get new numbers', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    await get(agent);
    await get(agent);
    agent.destroy();
    await get(undefined, { Connection: 'close' });
    await get(undefined, { Connection: 'close' });
    const numbers = (await control(sandbox, '/requests')).body.map((entry) => entry.connection);
    expect(numbers).toHaveLength(4);
    expect(numbers.every(Number.isInteger)).toBe(true);
    expect(numbers[0]).toBe(numbers[1]);
    expect(new Set(numbers).size).toBe(3);
  });
});

describe('other control endpoints', () => {
  test('index, seed summary, 404 for unknown control paths, 400 for a non-JSON body', async () => {
    expect((await control(sandbox, '')).body.endpoints).toContain('POST /_sandbox/faults');
    const seed = (await control(sandbox, '/seed')).body;
    expect(seed.companies.map((company) => company.id)).toEqual(['FR1001', 'FR1002', 'ES2001', 'GB3001']);
    expect(seed.documents.GB3001).toHaveLength(7);
    expect((await control(sandbox, '/nothing')).status).toBe(404);
    const broken = await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'POST', body: 'not json' });
    expect(broken.status).toBe(400);
  });

  test('GET / describes the addresses', async () => {
    const index = await (await fetch(`${sandbox.url}/`)).json();
    expect(index).toMatchObject({ apiBaseUrl: sandbox.apiBaseUrl, authServerUrl: sandbox.authServerUrl, controlUrl: `${sandbox.url}/_sandbox` });
  });
});
