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

test('reset turns limits back off; bad settings are refused', async () => {
  await control(sandbox, '/rate-limits', { method: 'POST', body: { enabled: true } });
  await control(sandbox, '/reset', { method: 'POST' });
  expect((await control(sandbox, '/rate-limits')).body).toEqual({ enabled: false, readsPerSecond: 50, writesPerSecond: 20 });
  expect((await control(sandbox, '/rate-limits', { method: 'POST', body: { readsPerSecond: 0 } })).status).toBe(400);
});
