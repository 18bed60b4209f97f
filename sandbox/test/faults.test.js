'use strict';
// Injected faults: status (429/500/503, JSON or HTML, before or after the effect), delay, truncate,
// malformed, the HTML sign-in page (html200), reset; matching, counts, listing, clearing. Redirect faults
// have their own file (redirects.test.js).

const { startTestSandbox, api, control, token } = require('./helpers');

let sandbox;
let t;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.reset();
  t = token(sandbox, 'FR1001');
});

const addFault = (body) => control(sandbox, '/faults', { method: 'POST', body });
const company = () => api(sandbox, '/companies/FR1001', { token: t });

describe('matching by query', () => {
  test('a fault with query values hits only requests that carry them', async () => {
    await addFault({ type: 'status', status: 404, path: '/payroll-status', query: { date: '202611' } });
    const status = (month) => api(sandbox, `/companies/FR1001/payroll-status?date=${month}`, { token: t });
    expect((await status('202610')).status).toBe(200);
    expect((await status('202611')).status).toBe(404);
    expect((await status('202611')).status).toBe(200);
  });

  test('query values must be strings', async () => {
    expect((await addFault({ type: 'status', status: 404, query: { date: 202611 } })).status).toBe(400);
  });
});

describe('status faults', () => {
  test('429 for the next N requests with the real body and headers (Retry-After when injected), then normal again', async () => {
    const created = await addFault({ type: 'status', status: 429, count: 2, retryAfter: 3, path: '/companies/FR1001' });
    expect(created.status).toBe(201);
    for (let i = 0; i < 2; i += 1) {
      const response = await company();
      expect(response.status).toBe(429);
      expect(await response.json()).toEqual({ message: 'API rate limit exceeded' });
      expect(response.headers.get('x-ratelimit-limit-second')).toBe('50');
      expect(response.headers.get('x-ratelimit-remaining-second')).toBe('0');
      expect(response.headers.get('retry-after')).toBe('3');
    }
    expect((await company()).status).toBe(200);
  });

  test('429 on a write announces the write limit; no Retry-After unless injected', async () => {
    await addFault({ type: 'status', status: 429, method: 'POST' });
    const response = await api(sandbox, '/companies/FR1001/billing-declarations', { method: 'POST', token: t, body: {} });
    expect(response.status).toBe(429);
    expect(response.headers.get('x-ratelimit-limit-second')).toBe('20');
    expect(response.headers.get('retry-after')).toBeNull();
  });

  test.each([[500, 'Internal Server Error'], [503, 'Service Unavailable']])('%i with the error object', async (status, error) => {
    await addFault({ type: 'status', status, retryAfter: status === 503 ? 1 : undefined });
    const response = await company();
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ code: status, error });
    expect(response.headers.get('retry-after')).toBe(status === 503 ? '1' : null);
    expect((await company()).status).toBe(200);
  });

  test('method, substring and ^regex matching against the full path; OAuth endpoints too', async () => {
    await addFault({ type: 'status', status: 500, method: 'POST' });
    expect((await company()).status).toBe(200);
    await control(sandbox, '/faults', { method: 'DELETE' });

    await addFault({ type: 'status', status: 503, path: '^/api/v1/companies/[A-Z0-9]+/accounting$' });
    expect((await api(sandbox, '/companies/FR1001/accounting-v2?date=202607', { token: t })).status).toBe(200);
    expect((await api(sandbox, '/companies/FR1001/accounting?date=202607', { token: t })).status).toBe(503);

    await addFault({ type: 'status', status: 503, path: '/oauth/token' });
    const tokenResponse = await fetch(`${sandbox.authServerUrl}/token`, { method: 'POST' });
    expect(tokenResponse.status).toBe(503);
  });

  test('control endpoints are never faulted', async () => {
    await addFault({ type: 'status', status: 500, path: '/_sandbox', count: 5 });
    expect((await control(sandbox, '/faults')).status).toBe(200);
  });
});

describe('other fault types', () => {
  test('delay: the answer comes after delayMs, then normal', async () => {
    await addFault({ type: 'delay', delayMs: 300 });
    let started = Date.now();
    expect((await company()).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    started = Date.now();
    await company();
    expect(Date.now() - started).toBeLessThan(250);
  });

  test('truncate: full Content-Length announced, half the body sent, connection closed', async () => {
    await addFault({ type: 'truncate', path: 'payment-files' });
    const expected = sandbox.seed.paymentFile('FR1001', '202607');
    const response = await api(sandbox, '/companies/FR1001/payment-files?date=202607', { token: t });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBe(expected.length);
    await expect(response.arrayBuffer()).rejects.toThrow();
    const normal = await api(sandbox, '/companies/FR1001/payment-files?date=202607', { token: t });
    expect(Buffer.from(await normal.arrayBuffer()).equals(expected)).toBe(true);
  });

  test('truncate also cuts JSON answers', async () => {
    await addFault({ type: 'truncate' });
    const response = await company();
    await expect(response.json()).rejects.toThrow();
  });

  test('malformed: 200 with broken JSON where JSON is expected', async () => {
    await addFault({ type: 'malformed', count: 2 });
    const response = await company();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    await expect(response.json()).rejects.toThrow();
    // Even an error answer becomes a malformed 200.
    const errorTurned = await api(sandbox, '/companies/FR1001');
    expect(errorTurned.status).toBe(200);
    expect((await company()).status).toBe(200);
  });

  test('malformed: 200 with something that is not the expected file for binary answers', async () => {
    await api(sandbox, '/companies/GB3001/income-taxes-documents', { token: token(sandbox, 'GB3001') });
    await addFault({ type: 'malformed', path: '/documents/' });
    const response = await api(sandbox, '/companies/GB3001/documents/gb3001-p60-2025-001', { token: token(sandbox, 'GB3001') });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await response.arrayBuffer()).subarray(0, 5).toString()).not.toBe('%PDF-');
  });
});

describe('faults before the operation or after it took effect', () => {
  const declaration = { monthOfApplication: '202607', quantityByProducts: [{ productName: 'Payroll', quantity: 3 }] };
  const declare = () => api(sandbox, '/companies/FR1001/billing-declarations', { method: 'POST', token: t, body: declaration });
  const declarations = async () => (await control(sandbox, '/billing-declarations?companyId=FR1001')).body;

  test('status before the operation: the declaration is not stored', async () => {
    await addFault({ type: 'status', status: 502, method: 'POST' });
    expect((await declare()).status).toBe(502);
    expect(await declarations()).toHaveLength(0);
  });

  test('status after the effect: the declaration is stored, the client sees the error', async () => {
    await addFault({ type: 'status', status: 502, method: 'POST', afterEffect: true });
    const response = await declare();
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ code: 502 });
    expect(await declarations()).toHaveLength(1);
  });

  test('html: a proxy error page instead of the JSON error object', async () => {
    await addFault({ type: 'status', status: 502, html: true });
    const response = await company();
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toMatch(/<html>.*502/);
  });

  test.each([
    [false, 0],
    [true, 1],
  ])('reset (afterEffect %p): no answer at all; declarations stored: %p', async (afterEffect, stored) => {
    await addFault({ type: 'reset', method: 'POST', afterEffect });
    await expect(declare()).rejects.toThrow();
    expect(await declarations()).toHaveLength(stored);
    expect((await company()).status).toBe(200);
  });

  test('delay after the effect: stored at once, answered late', async () => {
    await addFault({ type: 'delay', delayMs: 400, method: 'POST', afterEffect: true });
    const answer = declare();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await declarations()).toHaveLength(1);
    expect((await answer).status).toBe(204);
  });

  test.each([{ type: 'truncate', afterEffect: true }, { type: 'reset', html: true }])('400 for %j', async (body) => {
    expect((await addFault(body)).status).toBe(400);
  });
});

describe('HTML sign-in page with 200 (html200, or malformed with html: true)', () => {
  const declaration = { monthOfApplication: '202607', quantityByProducts: [{ productName: 'Payroll', quantity: 3 }] };
  const declare = () => api(sandbox, '/companies/FR1001/billing-declarations', { method: 'POST', token: t, body: declaration });
  const declarations = async () => (await control(sandbox, '/billing-declarations?companyId=FR1001')).body;

  test.each([{ type: 'html200' }, { type: 'malformed', html: true }])('%j on a POST: 200 text/html sign-in page, nothing recorded', async (fault) => {
    await addFault({ ...fault, method: 'POST' });
    const response = await declare();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await response.text();
    expect(page.startsWith('<html><head><title>Sign in</title>')).toBe(true);
    expect(page).toMatch(/<input id="password" name="password" type="password"/);
    expect(await declarations()).toEqual([]);
    // Consumed: the next declaration is stored.
    expect((await declare()).status).toBe(204);
    expect(await declarations()).toHaveLength(1);
  });

  test('on a JSON read: the page instead of the company; logged as html200; listed as given', async () => {
    await addFault({ type: 'html200', path: '/companies/FR1001' });
    expect((await control(sandbox, '/faults')).body).toEqual([
      { id: expect.any(Number), type: 'html200', path: '/companies/FR1001', count: 1, remaining: 1 },
    ]);
    const response = await company();
    expect(response.status).toBe(200);
    await expect(response.json()).rejects.toThrow();
    expect((await company()).status).toBe(200);
    expect((await control(sandbox, '/requests')).body.map((entry) => [entry.status, entry.fault])).toEqual([[200, 'html200'], [200, null]]);
  });

  test('malformed without html keeps its behaviour: the operation runs (the declaration is stored), then a broken 200', async () => {
    await addFault({ type: 'malformed', method: 'POST' });
    const response = await declare();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    await expect(response.json()).rejects.toThrow();
    expect(await declarations()).toHaveLength(1);
  });

  test.each([{ type: 'truncate', html: true }, { type: 'delay', delayMs: 1, html: true }])('400 for %j', async (body) => {
    expect((await addFault(body)).status).toBe(400);
  });
});

describe('managing faults', () => {
  test('GET lists remaining faults with their counts; DELETE clears', async () => {
    await addFault({ type: 'status', status: 500, count: 3, path: '/companies/FR1001' });
    await addFault({ type: 'delay', delayMs: 1, method: 'get' });
    await company();
    const list = (await control(sandbox, '/faults')).body;
    expect(list).toEqual([
      { id: expect.any(Number), type: 'status', status: 500, count: 3, remaining: 2, path: '/companies/FR1001' },
      { id: expect.any(Number), type: 'delay', delayMs: 1, count: 1, remaining: 1, method: 'GET' },
    ]);
    expect((await control(sandbox, '/faults', { method: 'DELETE' })).status).toBe(204);
    expect((await control(sandbox, '/faults')).body).toEqual([]);
    expect((await company()).status).toBe(200);
  });

  test('the request log records the fault type', async () => {
    await addFault({ type: 'status', status: 503 });
    await company();
    await company();
    expect((await control(sandbox, '/requests')).body.map((entry) => [entry.status, entry.fault])).toEqual([[503, 'status'], [200, null]]);
  });

  test.each([
    { type: 'explode' },
    { type: 'status' },
    { type: 'status', status: 200 },
    { type: 'status', status: 500, count: 0 },
    { type: 'delay' },
    { type: 'truncate', path: '^(' },
    { type: 'status', status: 429, retryAfter: -1 },
  ])('400 for %j', async (body) => {
    expect((await addFault(body)).status).toBe(400);
  });
});
