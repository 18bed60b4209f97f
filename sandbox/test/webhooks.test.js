'use strict';
// Optional Svix-style `payroll.run` webhooks, registered through the control endpoints.

const http = require('node:http');
const crypto = require('node:crypto');
const { startTestSandbox, control } = require('./helpers');

const SECRET = `whsec_${Buffer.from('sandbox-webhook-secret-0123456789').toString('base64')}`;

let sandbox;
let receiver;
let received;
let receiverUrl;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${receiver.address().port}/hooks`;
});
afterAll(async () => {
  await sandbox.close();
  await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(() => {
  sandbox.reset();
  received = [];
});

async function waitForDeliveries(count) {
  for (let i = 0; i < 100 && received.length < count; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  return received;
}

test('a month switched to completed sends a signed payroll.run event once', async () => {
  const endpoint = await control(sandbox, '/webhooks', { method: 'POST', body: { url: receiverUrl, secret: SECRET } });
  expect(endpoint.status).toBe(201);
  await control(sandbox, '/payroll-status', { method: 'POST', body: { companyId: 'FR1001', month: '202611', status: 'completed', executionEndDate: '2026-11-27T18:00:00.000Z' } });
  const [delivery] = await waitForDeliveries(1);
  expect(JSON.parse(delivery.body)).toEqual({ type: 'payroll.run', data: { companyId: 'FR1001', effectiveDate: '2026-11-27T18:00:00.000Z', payrollMonth: '202611' } });
  const { 'svix-id': id, 'svix-timestamp': timestamp, 'svix-signature': signature } = delivery.headers;
  expect(id).toMatch(/^msg_/);
  expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(30);
  const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
  expect(signature).toBe(`v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${delivery.body}`).digest('base64')}`);

  // Already completed: no second event. The delivery is recorded.
  await control(sandbox, '/payroll-status', { method: 'POST', body: { companyId: 'FR1001', month: '202611', status: 'completed' } });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(received).toHaveLength(1);
  expect((await control(sandbox, '/webhooks/deliveries')).body).toMatchObject([{ messageId: id, status: 204, error: null }]);
});

test('on demand for a completed month; 409 for a month that is not completed', async () => {
  await control(sandbox, '/webhooks', { method: 'POST', body: { url: receiverUrl } });
  const sent = await control(sandbox, '/webhooks/payroll-run', { method: 'POST', body: { companyId: 'GB3001', month: '202608' } });
  expect(sent.status).toBe(200);
  expect(sent.body[0].body.data).toEqual({ companyId: 'GB3001', effectiveDate: '2026-08-28T14:42:05.000Z', payrollMonth: '202608' });
  expect(await waitForDeliveries(1)).toHaveLength(1);
  expect((await control(sandbox, '/webhooks/payroll-run', { method: 'POST', body: { companyId: 'GB3001', month: '202612' } })).status).toBe(409);
});

test('registration is validated, listed, cleared by DELETE and by reset', async () => {
  expect((await control(sandbox, '/webhooks', { method: 'POST', body: { url: 'not a url' } })).status).toBe(400);
  expect((await control(sandbox, '/webhooks', { method: 'POST', body: { url: receiverUrl, secret: 'plain' } })).status).toBe(400);
  const created = (await control(sandbox, '/webhooks', { method: 'POST', body: { url: receiverUrl } })).body;
  expect(created.secret).toMatch(/^whsec_/);
  expect((await control(sandbox, '/webhooks')).body).toEqual([created]);
  expect((await control(sandbox, '/webhooks', { method: 'DELETE' })).status).toBe(204);
  expect((await control(sandbox, '/webhooks')).body).toEqual([]);
  await control(sandbox, '/webhooks', { method: 'POST', body: { url: receiverUrl } });
  sandbox.reset();
  expect((await control(sandbox, '/webhooks')).body).toEqual([]);
});
