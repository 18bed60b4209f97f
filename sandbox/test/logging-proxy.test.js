'use strict';
// The tests' logging forward proxy (test/support/logging-proxy.js) in front of the sandbox: absolute-URI
// requests and CONNECT tunnels are logged and forwarded with their headers and bodies.

const http = require('node:http');
const { startLoggingProxy } = require('../../test/support/logging-proxy');
const { closedPort } = require('../../test/support/network');
const { startTestSandbox, control, token } = require('./helpers');

let sandbox;
let proxy;
let t;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  proxy = await startLoggingProxy();
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
});
beforeEach(() => {
  sandbox.reset();
  proxy.clear();
  t = token(sandbox, 'FR1001');
});

/** Sends one request through `options` and collects {status, headers, body}. */
function exchange(options, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ agent: false, ...options }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A request as a client configured with an http proxy sends it: to the proxy, absolute URI as target. */
function viaProxy(targetUrl, { method = 'GET', headers = {}, body } = {}) {
  return exchange({ host: '127.0.0.1', port: proxy.port, method, path: targetUrl, headers }, body);
}

test('startLoggingProxy gives its address', () => {
  expect(proxy.url).toBe(`http://127.0.0.1:${proxy.port}`);
});

test('absolute-URI GET: forwarded with its headers, the file comes back byte for byte, the request is logged', async () => {
  const target = `${sandbox.apiBaseUrl}/companies/FR1001/payment-files?date=202607`;
  const response = await viaProxy(target, { headers: { Authorization: `Bearer ${t}` } });
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toBe('application/octet-stream');
  expect(response.body.equals(sandbox.seed.paymentFile('FR1001', '202607'))).toBe(true);
  expect(proxy.requests()).toEqual([{ method: 'GET', url: target }]);
  const [logged] = (await control(sandbox, '/requests')).body;
  expect(logged).toMatchObject({ method: 'GET', path: '/api/v1/companies/FR1001/payment-files', status: 200, authorization: `Bearer …${t.slice(-4)}` });
});

test('POST body and status pass through both ways (a declaration is stored; a 401 comes back as is)', async () => {
  const target = `${sandbox.apiBaseUrl}/companies/FR1001/billing-declarations`;
  const body = JSON.stringify({ monthOfApplication: '202607', quantityByProducts: [{ productName: 'Payroll', quantity: 2 }] });
  const stored = await viaProxy(target, { method: 'POST', headers: { Authorization: `Bearer ${t}`, 'Content-Type': 'application/json' }, body });
  expect(stored.status).toBe(204);
  expect((await control(sandbox, '/billing-declarations?companyId=FR1001')).body).toHaveLength(1);
  const refused = await viaProxy(target, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  expect(refused.status).toBe(401);
  expect(refused.headers['www-authenticate']).toMatch(/^Bearer/);
  expect(JSON.parse(refused.body.toString())).toEqual({ code: 401, error: 'Unauthorized' });
  expect(proxy.requests()).toEqual([{ method: 'POST', url: target }, { method: 'POST', url: target }]);
});

test('CONNECT: the tunnel target is logged and bytes flow through it', async () => {
  const authority = `127.0.0.1:${sandbox.port}`;
  const socket = await new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxy.port, method: 'CONNECT', path: authority, agent: false });
    req.on('connect', (res, tunnel) => (res.statusCode === 200 ? resolve(tunnel) : reject(new Error(`CONNECT ${res.statusCode}`))));
    req.on('error', reject);
    req.end();
  });
  const response = await exchange({
    createConnection: () => socket,
    host: '127.0.0.1',
    port: sandbox.port,
    path: '/api/v1/companies/FR1001',
    headers: { Authorization: `Bearer ${t}`, Connection: 'close' },
  });
  expect(response.status).toBe(200);
  expect(JSON.parse(response.body.toString())).toMatchObject({ id: 'FR1001' });
  expect(proxy.requests()).toEqual([{ method: 'CONNECT', url: authority }]);
});

test('a relative request target is 400, an unreachable target 502; both logged; clear() empties the log', async () => {
  const relative = await exchange({ host: '127.0.0.1', port: proxy.port, path: '/api/v1/companies/FR1001' });
  expect(relative.status).toBe(400);
  const port = await closedPort();
  const unreachable = await viaProxy(`http://127.0.0.1:${port}/anything`);
  expect(unreachable.status).toBe(502);
  expect(proxy.requests()).toEqual([
    { method: 'GET', url: '/api/v1/companies/FR1001' },
    { method: 'GET', url: `http://127.0.0.1:${port}/anything` },
  ]);
  proxy.clear();
  expect(proxy.requests()).toEqual([]);
});

test('close() stops it', async () => {
  const own = await startLoggingProxy();
  await own.close();
  await expect(exchange({ host: '127.0.0.1', port: own.port, path: `${sandbox.apiBaseUrl}/companies/FR1001` })).rejects.toThrow();
});
