'use strict';
// Svix-style partner webhooks, registered through the control endpoints: signed deliveries of the three
// events, retries with the same message id, replay, secret rotation, Standard Webhooks headers.

const http = require('node:http');
const crypto = require('node:crypto');
const { startTestSandbox, control } = require('./helpers');

const SECRET = `whsec_${Buffer.from('sandbox-webhook-secret-0123456789').toString('base64')}`;
const NEW_SECRET = `whsec_${Buffer.from('sandbox-webhook-secret-rotated-01').toString('base64')}`;

let sandbox;
let receiver;
let received;
let receiverUrl;
/** Status codes the receiver answers, in order; then 204. */
let answers;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const answer = answers.shift() ?? { status: 204 };
      res.writeHead(answer.status, answer.headers ?? {}).end();
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
  answers = [];
});

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function waitForDeliveries(count) {
  for (let i = 0; i < 200 && received.length < count; i += 1) await pause(10);
  return received;
}

/** Every `v1` signature of the header, checked against the secret the way a receiver does. */
function signedWith(delivery, secret, prefix = 'svix') {
  const id = delivery.headers[`${prefix}-id`];
  const timestamp = delivery.headers[`${prefix}-timestamp`];
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${delivery.body}`).digest('base64')}`;
  return delivery.headers[`${prefix}-signature`].split(' ').includes(expected);
}

const register = (body) => control(sandbox, '/webhooks', { method: 'POST', body: { url: receiverUrl, secret: SECRET, ...body } });
const fastRetries = (retryScheduleMs = [50, 50, 50]) => control(sandbox, '/webhooks/settings', { method: 'POST', body: { retryScheduleMs } });

test('a month switched to completed sends a signed payroll.run event once, its date written like the service', async () => {
  const endpoint = await register();
  expect(endpoint.status).toBe(201);
  await control(sandbox, '/payroll-status', { method: 'POST', body: { companyId: 'FR1001', month: '202611', status: 'completed', executionEndDate: '2026-11-27T18:00:00.000Z' } });
  const [delivery] = await waitForDeliveries(1);
  expect(JSON.parse(delivery.body)).toEqual({ type: 'payroll.run', data: { companyId: 'FR1001', effectiveDate: '2026-11-27T18:00:00+00:00', payrollMonth: '202611' } });
  expect(delivery.headers['svix-id']).toMatch(/^msg_/);
  expect(Math.abs(Number(delivery.headers['svix-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
  expect(signedWith(delivery, SECRET)).toBe(true);

  // Already completed: no second event. The delivery is recorded.
  await control(sandbox, '/payroll-status', { method: 'POST', body: { companyId: 'FR1001', month: '202611', status: 'completed' } });
  await pause(50);
  expect(received).toHaveLength(1);
  expect((await control(sandbox, '/webhooks/deliveries')).body).toMatchObject([{ messageId: delivery.headers['svix-id'], attempt: 1, status: 204, error: null, durationMs: expect.any(Number) }]);
});

test('months completed together (an array) send one payroll.run each, none for a month already completed', async () => {
  await register();
  const changes = ['FR1001', 'FR1002', 'ES2001'].map((companyId) => ({ companyId, month: '202611', status: 'completed', executionEndDate: '2026-11-27T18:00:00.000Z' }));
  await control(sandbox, '/payroll-status', { method: 'POST', body: changes.slice(0, 1) });
  await waitForDeliveries(1);
  await control(sandbox, '/payroll-status', { method: 'POST', body: changes });
  const deliveries = await waitForDeliveries(3);
  await pause(50);
  expect(received).toHaveLength(3);
  expect(deliveries.map((delivery) => JSON.parse(delivery.body).data.companyId).sort()).toEqual(['ES2001', 'FR1001', 'FR1002']);
});

test('on demand for a completed month, each time a new message id; another effectiveDate for a re-run; 409 for a month not completed', async () => {
  await register();
  const sent = await control(sandbox, '/webhooks/payroll-run', { method: 'POST', body: { companyId: 'GB3001', month: '202608' } });
  expect(sent.status).toBe(200);
  expect(sent.body).toMatchObject({ type: 'payroll.run', body: { data: { companyId: 'GB3001', effectiveDate: '2026-08-28T14:42:05+00:00', payrollMonth: '202608' } }, deliveries: [{ endpointId: 'ep_1', state: 'delivered', attempts: 1 }] });
  const again = await control(sandbox, '/webhooks/payroll-run', { method: 'POST', body: { companyId: 'GB3001', month: '202608', effectiveDate: '2026-08-30T09:00:00Z' } });
  expect(again.body.id).not.toBe(sent.body.id);
  expect(again.body.body.data.effectiveDate).toBe('2026-08-30T09:00:00+00:00');
  expect(await waitForDeliveries(2)).toHaveLength(2);
  expect((await control(sandbox, '/webhooks/payroll-run', { method: 'POST', body: { companyId: 'GB3001', month: '202612' } })).status).toBe(409);
});

test('integration events', async () => {
  await register();
  const sent = await control(sandbox, '/webhooks/integration', { method: 'POST', body: { companyId: 'ES2001', event: 'deactivated', effectiveDate: '2026-12-01T08:30:00.000Z' } });
  expect(sent.status).toBe(200);
  const [delivery] = await waitForDeliveries(1);
  expect(JSON.parse(delivery.body)).toEqual({ type: 'integration.deactivated', data: { companyId: 'ES2001', effectiveDate: '2026-12-01T08:30:00+00:00' } });
  expect((await control(sandbox, '/webhooks/integration', { method: 'POST', body: { companyId: 'ES2001', event: 'paused' } })).status).toBe(400);
});

test('a failed attempt is retried with the same message id, a new timestamp and signature, until a 2xx', async () => {
  await register();
  await fastRetries();
  answers = [{ status: 500 }, { status: 409 }, { status: 200 }];
  const sent = await control(sandbox, '/webhooks/send', { method: 'POST', body: { type: 'payroll.run', data: { companyId: 'FR1001', effectiveDate: '2026-11-27T18:00:00+00:00', payrollMonth: '202611' } } });
  expect(sent.body.deliveries).toEqual([{ endpointId: 'ep_1', state: 'retrying', attempts: 1 }]);
  const deliveries = await waitForDeliveries(3);
  expect(new Set(deliveries.map((delivery) => delivery.headers['svix-id']))).toEqual(new Set([sent.body.id]));
  expect(deliveries.every((delivery) => signedWith(delivery, SECRET))).toBe(true);
  await pause(100);
  expect(received).toHaveLength(3);
  expect((await control(sandbox, '/webhooks/messages')).body[0].deliveries).toEqual([{ endpointId: 'ep_1', state: 'delivered', attempts: 3 }]);
});

test('the schedule ends: a message failing every attempt is marked failed; the receiver being down counts as a failure', async () => {
  await control(sandbox, '/webhooks', { method: 'POST', body: { url: 'http://127.0.0.1:9/down' } });
  await fastRetries([20, 20]);
  await control(sandbox, '/webhooks/send', { method: 'POST', body: { type: 'integration.activated', data: { companyId: 'FR1001', effectiveDate: '2026-11-01T00:00:00+00:00' } } });
  for (let i = 0; i < 100; i += 1) {
    const [message] = (await control(sandbox, '/webhooks/messages')).body;
    if (message.deliveries[0].state === 'failed') break;
    await pause(20);
  }
  const [message] = (await control(sandbox, '/webhooks/messages')).body;
  expect(message.deliveries).toEqual([{ endpointId: 'ep_1', state: 'failed', attempts: 3 }]);
  expect((await control(sandbox, '/webhooks/deliveries')).body.every((attempt) => attempt.error)).toBe(true);
});

test("an answer with webhook-delivery: abort-message stops the message's retries", async () => {
  await register();
  await fastRetries();
  answers = [{ status: 400, headers: { 'webhook-delivery': 'abort-message' } }];
  const sent = await control(sandbox, '/webhooks/send', { method: 'POST', body: { type: 'payroll.run', data: {} } });
  expect(sent.body.deliveries).toEqual([{ endpointId: 'ep_1', state: 'aborted', attempts: 1 }]);
  await pause(150);
  expect(received).toHaveLength(1);
});

test('resend (the portal replay) sends the same message again, same id and body', async () => {
  await register();
  const sent = await control(sandbox, '/webhooks/payroll-run', { method: 'POST', body: { companyId: 'GB3001', month: '202608' } });
  const replay = await control(sandbox, '/webhooks/resend', { method: 'POST', body: { messageId: sent.body.id } });
  expect(replay.status).toBe(200);
  const [first, second] = await waitForDeliveries(2);
  expect(second.headers['svix-id']).toBe(first.headers['svix-id']);
  expect(second.body).toBe(first.body);
  expect((await control(sandbox, '/webhooks/resend', { method: 'POST', body: { messageId: 'msg_unknown' } })).status).toBe(404);
});

test('rotation: two signatures (new and previous secret) during the overlap, then the new one only', async () => {
  await register();
  await control(sandbox, '/webhooks/settings', { method: 'POST', body: { rotationOverlapMs: 300 } });
  const rotated = await control(sandbox, '/webhooks/rotate', { method: 'POST', body: { endpointId: 'ep_1', secret: NEW_SECRET } });
  expect(rotated.body).toMatchObject({ secret: NEW_SECRET, previousSecrets: [{ secret: SECRET }] });
  const event = { type: 'integration.activated', data: { companyId: 'FR1001', effectiveDate: '2026-11-01T00:00:00+00:00' } };
  await control(sandbox, '/webhooks/send', { method: 'POST', body: event });
  const [during] = await waitForDeliveries(1);
  expect(during.headers['svix-signature'].split(' ')).toHaveLength(2);
  expect(signedWith(during, NEW_SECRET) && signedWith(during, SECRET)).toBe(true);
  await pause(350);
  await control(sandbox, '/webhooks/send', { method: 'POST', body: event });
  const [, after] = await waitForDeliveries(2);
  expect(signedWith(after, NEW_SECRET)).toBe(true);
  expect(signedWith(after, SECRET)).toBe(false);
});

test('an endpoint can receive the Standard Webhooks headers (webhook-*) instead of svix-*', async () => {
  await register({ headers: 'webhook' });
  await control(sandbox, '/webhooks/payroll-run', { method: 'POST', body: { companyId: 'GB3001', month: '202608' } });
  const [delivery] = await waitForDeliveries(1);
  expect(delivery.headers['svix-id']).toBeUndefined();
  expect(delivery.headers['webhook-id']).toMatch(/^msg_/);
  expect(signedWith(delivery, SECRET, 'webhook')).toBe(true);
});

test('a timestamp offset (a sender clock off, or an old message) and a given message id', async () => {
  await register();
  await control(sandbox, '/webhooks/send', { method: 'POST', body: { id: 'msg_fixed', timestampOffsetSeconds: -400, type: 'integration.activated', data: { companyId: 'FR1001', effectiveDate: '2026-11-01T00:00:00+00:00' } } });
  const [delivery] = await waitForDeliveries(1);
  expect(delivery.headers['svix-id']).toBe('msg_fixed');
  expect(Date.now() / 1000 - Number(delivery.headers['svix-timestamp'])).toBeGreaterThan(395);
});

test('registration, settings and sends are validated; DELETE and reset clear endpoints, messages, pending retries and settings', async () => {
  expect((await control(sandbox, '/webhooks', { method: 'POST', body: { url: 'not a url' } })).status).toBe(400);
  expect((await control(sandbox, '/webhooks', { method: 'POST', body: { url: receiverUrl, secret: 'plain' } })).status).toBe(400);
  expect((await control(sandbox, '/webhooks', { method: 'POST', body: { url: receiverUrl, headers: 'other' } })).status).toBe(400);
  expect((await control(sandbox, '/webhooks/settings', { method: 'POST', body: { retryScheduleMs: [-1] } })).status).toBe(400);
  expect((await control(sandbox, '/webhooks/send', { method: 'POST', body: { type: 'payroll.deleted', data: {} } })).status).toBe(400);
  expect((await control(sandbox, '/webhooks/rotate', { method: 'POST', body: { endpointId: 'ep_9' } })).status).toBe(404);
  const created = (await control(sandbox, '/webhooks', { method: 'POST', body: { url: receiverUrl } })).body;
  expect(created.secret).toMatch(/^whsec_/);
  expect((await control(sandbox, '/webhooks')).body).toEqual([created]);
  expect((await control(sandbox, '/webhooks', { method: 'DELETE' })).status).toBe(204);
  expect((await control(sandbox, '/webhooks')).body).toEqual([]);

  await control(sandbox, '/webhooks', { method: 'POST', body: { url: 'http://127.0.0.1:9/down' } });
  await control(sandbox, '/webhooks/settings', { method: 'POST', body: { retryScheduleMs: [60000] } });
  await control(sandbox, '/webhooks/send', { method: 'POST', body: { type: 'payroll.run', data: {} } });
  expect((await control(sandbox, '/webhooks/settings')).body).toMatchObject({ retryScheduleMs: [60000], pendingRetries: 1 });
  sandbox.reset();
  expect((await control(sandbox, '/webhooks')).body).toEqual([]);
  expect((await control(sandbox, '/webhooks/messages')).body).toEqual([]);
  expect((await control(sandbox, '/webhooks/settings')).body).toMatchObject({ retryScheduleMs: [5000, 300000, 1800000, 7200000, 18000000, 36000000, 36000000], pendingRetries: 0 });
});
