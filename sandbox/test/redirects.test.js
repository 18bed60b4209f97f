'use strict';
// Redirect faults: to the same origin (served again, token required) and to the signed-storage origin
// (served without a token, refused with one, every request logged), for API reads, files and the
// authorization server's introspection.

const crypto = require('node:crypto');
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
const storageLog = async () => (await control(sandbox, '/storage/requests')).body;
const sha256 = (buffer) => crypto.createHash('sha256').update(buffer).digest('hex');
const bytesOf = async (response) => Buffer.from(await response.arrayBuffer());
const bearer = (value) => ({ Authorization: `Bearer ${value}` });

/** GET through the API with a redirect fault on it: the redirect answer (not followed). */
async function redirected(path, fault, accessToken = t) {
  await addFault({ type: 'redirect', path: path.split('?')[0], ...fault });
  const response = await api(sandbox, path, { token: accessToken });
  expect(response.status).toBe(fault.status);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return response.headers.get('location');
}

describe('to: "same"', () => {
  test('Location is the same path and query plus redirected=1; served normally with the token, 401 without', async () => {
    const location = await redirected('/companies/FR1001/payment-files?date=202607', { status: 302, to: 'same' });
    expect(location).toBe(`${sandbox.apiBaseUrl}/companies/FR1001/payment-files?date=202607&redirected=1`);
    const followed = await fetch(location, { headers: bearer(t) });
    expect(followed.status).toBe(200);
    expect(followed.headers.get('content-type')).toBe('application/octet-stream');
    expect(sha256(await bytesOf(followed))).toBe(sha256(sandbox.seed.paymentFile('FR1001', '202607')));
    const anonymous = await fetch(location);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const log = (await control(sandbox, '/requests')).body;
    expect(log.map((entry) => [entry.status, entry.fault, entry.query.redirected || null])).toEqual([
      [302, 'redirect', null],
      [200, null, '1'],
      [401, null, '1'],
    ]);
    expect(await storageLog()).toEqual([]);
  });

  test.each([301, 302, 303, 307, 308])('%i followed by fetch (same origin, token kept) gives the same JSON', async (status) => {
    const direct = await (await api(sandbox, '/companies/FR1001', { token: t })).json();
    await addFault({ type: 'redirect', status, to: 'same', path: '/companies/FR1001' });
    const followed = await fetch(`${sandbox.apiBaseUrl}/companies/FR1001`, { headers: bearer(t) });
    expect(followed.status).toBe(200);
    expect(followed.redirected).toBe(true);
    expect(await followed.json()).toEqual(direct);
  });

  test('count 2 redirects the redirected request again (redirected=2), then serves it', async () => {
    await addFault({ type: 'redirect', status: 307, to: 'same', path: '/companies/FR1001', count: 2 });
    const first = await api(sandbox, '/companies/FR1001', { token: t });
    expect(first.headers.get('location')).toBe(`${sandbox.apiBaseUrl}/companies/FR1001?redirected=1`);
    const second = await fetch(first.headers.get('location'), { headers: bearer(t), redirect: 'manual' });
    expect(second.status).toBe(307);
    expect(second.headers.get('location')).toBe(`${sandbox.apiBaseUrl}/companies/FR1001?redirected=2`);
    expect((await fetch(second.headers.get('location'), { headers: bearer(t) })).status).toBe(200);
  });
});

describe('to: "other" (signed storage)', () => {
  test('the storage origin differs from the sandbox origin and is exposed by startSandbox, GET / and GET /_sandbox', async () => {
    expect(sandbox.storageUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new URL(sandbox.storageUrl).origin).not.toBe(new URL(sandbox.url).origin);
    expect((await (await fetch(`${sandbox.url}/`)).json()).storageUrl).toBe(sandbox.storageUrl);
    expect((await control(sandbox, '')).body).toMatchObject({ storageUrl: sandbox.storageUrl, url: sandbox.url });
  });

  test('payment file: Location on the storage origin without the token; identical bytes without Authorization, 400 with it; logged', async () => {
    const location = await redirected('/companies/FR1001/payment-files?date=202607', { status: 302, to: 'other' });
    const url = new URL(location);
    expect(url.origin).toBe(sandbox.storageUrl);
    expect(url.pathname).toMatch(/^\/storage\/[A-Za-z0-9_-]{16,}\/api\/v1\/companies\/FR1001\/payment-files$/);
    expect(url.searchParams.get('date')).toBe('202607');
    expect(location).not.toContain(t);
    // The redirect did not serve the file: nothing was sent to storage yet.
    expect(await storageLog()).toEqual([]);

    const direct = await api(sandbox, '/companies/FR1001/payment-files?date=202607', { token: t });
    const directBytes = await bytesOf(direct);
    const stored = await fetch(location);
    expect(stored.status).toBe(200);
    expect(stored.headers.get('content-type')).toBe(direct.headers.get('content-type'));
    const storedBytes = await bytesOf(stored);
    expect(sha256(storedBytes)).toBe(sha256(directBytes));
    expect(storedBytes.equals(sandbox.seed.paymentFile('FR1001', '202607'))).toBe(true);

    const refused = await fetch(location, { headers: bearer(t) });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toBe('application/xml');
    const error = await refused.text();
    expect(error).toMatch(/<Error><Code>InvalidArgument<\/Code><Message>Only one auth mechanism allowed/);
    expect(error).not.toContain(t);

    expect(await storageLog()).toEqual([
      {
        time: expect.any(String),
        method: 'GET',
        path: url.pathname,
        query: { date: '202607' },
        authorization: null,
        originalPath: '/api/v1/companies/FR1001/payment-files',
        status: 200,
      },
      expect.objectContaining({ method: 'GET', path: url.pathname, authorization: `Bearer ${t}`, status: 400 }),
    ]);
    // The storage requests do not appear in the sandbox's own request log.
    expect((await control(sandbox, '/requests')).body.map((entry) => [entry.status, entry.fault])).toEqual([
      [302, 'redirect'],
      [200, null],
    ]);
  });

  test('accounting CSV and a JSON read: the same bytes and Content-Type as the API', async () => {
    for (const path of ['/companies/FR1001/accounting?date=202608', '/companies/FR1001/accounting-v2?date=202608', '/companies/FR1001']) {
      const location = await redirected(path, { status: 301, to: 'other' });
      const direct = await api(sandbox, path, { token: t });
      const stored = await fetch(location);
      expect(stored.status).toBe(200);
      expect(stored.headers.get('content-type')).toBe(direct.headers.get('content-type'));
      expect(sha256(await bytesOf(stored))).toBe(sha256(await bytesOf(direct)));
    }
    const csv = await fetch((await control(sandbox, '/storage')).body.signedUrls[0].location);
    expect((await bytesOf(csv)).equals(sandbox.seed.accountingCsv('FR1001', '202608'))).toBe(true);
  });

  test('document PDF: same bytes, Content-Type and Content-Disposition', async () => {
    const gb = token(sandbox, 'GB3001');
    await api(sandbox, '/companies/GB3001/income-taxes-documents', { token: gb });
    const path = '/companies/GB3001/documents/gb3001-p60-2025-001';
    const location = await redirected(path, { status: 303, to: 'other' }, gb);
    const direct = await api(sandbox, path, { token: gb });
    const stored = await fetch(location);
    expect(stored.status).toBe(200);
    expect(stored.headers.get('content-type')).toBe('application/pdf');
    expect(stored.headers.get('content-disposition')).toBe(direct.headers.get('content-disposition'));
    expect(stored.headers.get('content-disposition')).toBe('attachment; filename="P60-2025-Jane-Doe.pdf"');
    const bytes = await bytesOf(stored);
    expect(sha256(bytes)).toBe(sha256(await bytesOf(direct)));
    expect(bytes.equals(sandbox.seed.document('GB3001', 'gb3001-p60-2025-001'))).toBe(true);
  });

  test('the answer is what the API gives the original request, with its token: a 404 stays a 404', async () => {
    const location = await redirected('/companies/FR1001/payment-files?date=202611', { status: 302, to: 'other' });
    const stored = await fetch(location);
    expect(stored.status).toBe(404);
    expect(await stored.json()).toMatchObject({ code: 404, details: expect.stringMatching(/^No completed payroll for 202611/) });
  });

  test('a signed URL is reusable until reset; a forged signature or another path is 403; outside /storage 404', async () => {
    const location = await redirected('/companies/FR1001', { status: 302, to: 'other' });
    expect((await fetch(location)).status).toBe(200);
    expect((await fetch(location)).status).toBe(200);
    const url = new URL(location);
    const signature = url.pathname.split('/')[2];
    const forged = await fetch(`${sandbox.storageUrl}/storage/${signature.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}/api/v1/companies/FR1001`);
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('<Code>AccessDenied</Code>');
    const otherPath = await fetch(`${sandbox.storageUrl}/storage/${signature}/api/v1/companies/FR1002`);
    expect(otherPath.status).toBe(403);
    expect(await otherPath.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    expect((await fetch(location, { method: 'DELETE' })).status).toBe(403);
    expect((await fetch(`${sandbox.storageUrl}/`)).status).toBe(404);
  });

  test('POST with 307: the operation runs when the storage URL is followed, not at the redirect', async () => {
    const declaration = { monthOfApplication: '202607', quantityByProducts: [{ productName: 'Payroll', quantity: 3 }] };
    await addFault({ type: 'redirect', status: 307, to: 'other', method: 'POST' });
    const response = await api(sandbox, '/companies/FR1001/billing-declarations', { method: 'POST', token: t, body: declaration });
    expect(response.status).toBe(307);
    const declarations = async () => (await control(sandbox, '/billing-declarations?companyId=FR1001')).body;
    expect(await declarations()).toHaveLength(0);
    const followed = await fetch(response.headers.get('location'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(declaration),
    });
    expect(followed.status).toBe(204);
    expect(await declarations()).toHaveLength(1);
  });

  test('GET /_sandbox/storage lists the signed URLs; DELETE /_sandbox/storage/requests and reset clear the log', async () => {
    const location = await redirected('/companies/FR1001', { status: 302, to: 'other' });
    await fetch(location);
    expect((await control(sandbox, '/storage')).body).toEqual({
      url: sandbox.storageUrl,
      signedUrls: [{ location, method: 'GET', path: '/api/v1/companies/FR1001', query: {}, status: 302, time: expect.any(String) }],
    });
    expect(await storageLog()).toHaveLength(1);
    expect((await control(sandbox, '/storage/requests', { method: 'DELETE' })).status).toBe(204);
    expect(await storageLog()).toEqual([]);

    await fetch(location);
    expect(await storageLog()).toHaveLength(1);
    expect((await control(sandbox, '/reset', { method: 'POST' })).status).toBe(200);
    expect(await storageLog()).toEqual([]);
    expect((await control(sandbox, '/storage')).body.signedUrls).toEqual([]);
    // Signed URLs do not survive a reset.
    const expired = await fetch(location);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('Request has expired');
  });
});

describe('introspection (authorization server)', () => {
  const introspect = (url, { authorization, body = { token: t }, method = 'POST' } = {}) => fetch(url, {
    method,
    headers: { 'Content-Type': 'application/json', ...(authorization ? { Authorization: authorization } : {}) },
    body: method === 'GET' ? undefined : JSON.stringify(body),
    redirect: 'manual',
  });

  test('to: "other": the storage answers the introspection without the header, refuses it with the header', async () => {
    const direct = await (await introspect(`${sandbox.authServerUrl}/introspect`, { authorization: `Bearer ${t}` })).json();
    expect(direct).toMatchObject({ active: true, company_id: 'FR1001' });

    await addFault({ type: 'redirect', status: 307, to: 'other', path: '/oauth/introspect' });
    const response = await introspect(`${sandbox.authServerUrl}/introspect`, { authorization: `Bearer ${t}` });
    expect(response.status).toBe(307);
    const location = response.headers.get('location');
    expect(new URL(location).origin).toBe(sandbox.storageUrl);
    expect(new URL(location).pathname).toMatch(/^\/storage\/[^/]+\/oauth\/introspect$/);

    const stored = await introspect(location);
    expect(stored.status).toBe(200);
    expect(stored.headers.get('cache-control')).toBe('no-store');
    expect(await stored.json()).toEqual(direct);
    // A client that turned the POST into a GET (301/302/303) gets the same answer.
    const asGet = await introspect(location, { method: 'GET' });
    expect(await asGet.json()).toEqual(direct);
    expect((await introspect(location, { authorization: `Bearer ${t}` })).status).toBe(400);

    expect((await storageLog()).map((entry) => [entry.method, entry.originalPath, entry.authorization, entry.status])).toEqual([
      ['POST', '/oauth/introspect', null, 200],
      ['GET', '/oauth/introspect', null, 200],
      ['POST', '/oauth/introspect', `Bearer ${t}`, 400],
    ]);
  });

  test('to: "same": the redirected introspection is served again, and still needs the bearer header', async () => {
    await addFault({ type: 'redirect', status: 308, to: 'same', path: '/oauth/introspect' });
    const response = await introspect(`${sandbox.authServerUrl}/introspect`, { authorization: `Bearer ${t}` });
    expect(response.status).toBe(308);
    const location = response.headers.get('location');
    expect(location).toBe(`${sandbox.authServerUrl}/introspect?redirected=1`);
    const followed = await introspect(location, { authorization: `Bearer ${t}` });
    expect(followed.status).toBe(200);
    expect(await followed.json()).toMatchObject({ active: true, company_id: 'FR1001' });
    expect((await introspect(location)).status).toBe(401);
  });
});

describe('validation and listing', () => {
  test('GET /_sandbox/faults shows status and to', async () => {
    await addFault({ type: 'redirect', status: 308, to: 'other', method: 'get', path: '/payment-files', count: 2 });
    expect((await control(sandbox, '/faults')).body).toEqual([
      { id: expect.any(Number), type: 'redirect', status: 308, to: 'other', method: 'GET', path: '/payment-files', count: 2, remaining: 2 },
    ]);
  });

  test.each([
    { type: 'redirect', to: 'same' },
    { type: 'redirect', status: 300, to: 'same' },
    { type: 'redirect', status: 404, to: 'same' },
    { type: 'redirect', status: 302 },
    { type: 'redirect', status: 302, to: 'elsewhere' },
    { type: 'redirect', status: 302, to: 'same', afterEffect: true },
    { type: 'redirect', status: 302, to: 'same', html: true },
    { type: 'delay', delayMs: 1, to: 'same' },
  ])('400 for %j', async (body) => {
    expect((await addFault(body)).status).toBe(400);
  });
});

test('close() stops the storage origin too', async () => {
  const own = await startTestSandbox();
  expect((await fetch(`${own.storageUrl}/`)).status).toBe(404);
  await own.close();
  await expect(fetch(`${own.storageUrl}/`)).rejects.toThrow();
  await expect(fetch(`${own.url}/`)).rejects.toThrow();
});
