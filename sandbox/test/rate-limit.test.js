'use strict';
// Optional real rate limiting: per client application, per second, reads and writes counted apart.

const { startTestSandbox, api, control, token } = require('./helpers');

let sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

/** Waits for the start of a fresh second so a burst stays within one window. */
async function freshSecond() {
  const wait = 1000 - (Date.now() % 1000);
  if (wait < 700) await new Promise((resolve) => setTimeout(resolve, wait + 5));
}

test('off by default: no rate-limit headers, no 429', async () => {
  const t = token(sandbox, 'FR1001');
  const responses = await Promise.all(Array.from({ length: 60 }, () => api(sandbox, '/companies/FR1001', { token: t })));
  expect(responses.every((response) => response.status === 200)).toBe(true);
  expect(responses[0].headers.get('x-ratelimit-limit-second')).toBeNull();
});

test('when enabled: limits per client application with the real headers, reads and writes apart', async () => {
  const configured = await control(sandbox, '/rate-limits', { method: 'POST', body: { enabled: true, readsPerSecond: 3, writesPerSecond: 2 } });
  expect(configured.body).toEqual({ enabled: true, readsPerSecond: 3, writesPerSecond: 2 });
  const fr = token(sandbox, 'FR1001');
  const es = token(sandbox, 'ES2001'); // same client (n8n-local): same budget
  const other = token(sandbox, 'GB3001', ['accounting:read'], { clientId: 'restricted-app' });
  await freshSecond();
  const first = await api(sandbox, '/companies/FR1001', { token: fr });
  expect(first.headers.get('x-ratelimit-limit-second')).toBe('3');
  expect(first.headers.get('x-ratelimit-remaining-second')).toBe('2');
  await api(sandbox, '/companies/ES2001', { token: es });
  await api(sandbox, '/companies/FR1001', { token: fr });
  const limited = await api(sandbox, '/companies/ES2001', { token: es });
  expect(limited.status).toBe(429);
  expect(await limited.json()).toEqual({ message: 'API rate limit exceeded' });
  expect(limited.headers.get('x-ratelimit-remaining-second')).toBe('0');
  expect((await api(sandbox, '/companies/GB3001', { token: other })).status).toBe(200);
  const write = await api(sandbox, '/companies/FR1001/billing-declarations', { method: 'POST', token: fr, body: { monthOfApplication: '202607', quantityByProducts: [{ productName: 'p', quantity: 1 }] } });
  expect(write.status).toBe(204);
  expect(write.headers.get('x-ratelimit-limit-second')).toBe('2');
});

test("one client's tokens for many companies share one budget; each company API key has its own", async () => {
  await control(sandbox, '/rate-limits', { method: 'POST', body: { enabled: true, readsPerSecond: 4 } });
  const companies = ['FR1001', 'FR1002', 'ES2001', 'GB3001'];
  const issued = sandbox.issueTokens(companies.map((companyId) => ({ companyId, scopes: [] })));
  const keys = sandbox.issueTokens([
    { companyId: 'FR1001', scopes: [], kind: 'apiKey' },
    { companyId: 'FR1001', scopes: [], kind: 'apiKey' },
    { companyId: 'ES2001', scopes: [], kind: 'apiKey' },
  ]);
  await freshSecond();
  // One request per company spends the client's four reads; a fifth, for any of them, is refused.
  const spent = await Promise.all(issued.map(({ companyId, access_token: t }) => api(sandbox, `/companies/${companyId}`, { token: t })));
  expect(spent.map((response) => response.status)).toEqual([200, 200, 200, 200]);
  expect(spent.map((response) => response.headers.get('x-ratelimit-remaining-second')).sort()).toEqual(['0', '1', '2', '3']);
  expect((await api(sandbox, '/companies/GB3001', { token: issued[3].access_token })).status).toBe(429);
  // No application behind an API key: each key, even two of one company, counts on its own.
  for (const { companyId, access_token: t } of keys) {
    const response = await api(sandbox, `/companies/${companyId}`, { token: t });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining-second')).toBe('3');
  }
});

test('a partner with 300 companies: 60 reads over 60 companies in one second, 50 served, 10 refused', async () => {
  const partner = await startTestSandbox({ generatedCompanies: 296, rateLimits: { enabled: true } });
  try {
    const companies = partner.seed.companyIds.slice(-60);
    const issued = partner.issueTokens(companies.map((companyId) => ({ companyId, scopes: [] })));
    await freshSecond();
    const responses = await Promise.all(issued.map(({ companyId, access_token: t }) => api(partner, `/companies/${companyId}`, { token: t })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(50);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
  } finally {
    await partner.close();
  }
});

test('reset turns limits back off; bad settings are refused', async () => {
  await control(sandbox, '/rate-limits', { method: 'POST', body: { enabled: true } });
  await control(sandbox, '/reset', { method: 'POST' });
  expect((await control(sandbox, '/rate-limits')).body).toEqual({ enabled: false, readsPerSecond: 50, writesPerSecond: 20 });
  expect((await control(sandbox, '/rate-limits', { method: 'POST', body: { readsPerSecond: 0 } })).status).toBe(400);
});
