'use strict';
// Optional partner webhooks as the real service delivers them through Svix (real-service fact; the spec
// describes none): event `payroll.run` with `{companyId, effectiveDate, payrollMonth}`. The real service has
// no subscription API (the provider enables it on request), so endpoints are registered through
// /_sandbox/webhooks only. An event is sent when a month of a company becomes completed through the control
// endpoint, or on demand. Delivery is one attempt, signed the Svix way; results are kept for inspection.

const crypto = require('node:crypto');
const { InputError } = require('./errors');

const DELIVERY_TIMEOUT_MS = 5000;
const MAX_DELIVERIES = 500;

/** Svix signature: base64 HMAC-SHA256, keyed by the base64 part of `whsec_...`, of `${id}.${timestamp}.${body}`. */
function svixSignature(secret, id, timestamp, body) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

function createWebhooks() {
  let endpoints = [];
  let deliveries = [];
  let nextId = 1;

  function register({ url, secret } = {}) {
    let parsed;
    try {
      parsed = new URL(url);
    } catch {
      throw new InputError('url must be an absolute http(s) URL');
    }
    if (!/^https?:$/.test(parsed.protocol)) throw new InputError('url must be an absolute http(s) URL');
    if (secret !== undefined && !(typeof secret === 'string' && /^whsec_[A-Za-z0-9+/=]{16,}$/.test(secret))) {
      throw new InputError('secret must look like whsec_<base64>');
    }
    const endpoint = { id: `ep_${nextId}`, url: parsed.toString(), secret: secret || `whsec_${crypto.randomBytes(24).toString('base64')}` };
    nextId += 1;
    endpoints.push(endpoint);
    return { ...endpoint };
  }

  async function deliver(endpoint, messageId, body) {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const record = { messageId, endpointId: endpoint.id, url: endpoint.url, body: JSON.parse(body), status: null, error: null };
    deliveries.push(record);
    if (deliveries.length > MAX_DELIVERIES) deliveries.shift();
    try {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'svix-id': messageId,
          'svix-timestamp': timestamp,
          'svix-signature': svixSignature(endpoint.secret, messageId, timestamp, body),
        },
        body,
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      record.status = response.status;
      await response.arrayBuffer();
    } catch (error) {
      record.error = error.message;
    }
  }

  /** Sends `payroll.run` to every endpoint; resolves when all attempts are over. */
  function payrollRun({ companyId, month, executionEndDate }) {
    const body = JSON.stringify({ type: 'payroll.run', data: { companyId, effectiveDate: executionEndDate, payrollMonth: month } });
    const messageId = `msg_${crypto.randomBytes(12).toString('hex')}`;
    return Promise.all(endpoints.map((endpoint) => deliver(endpoint, messageId, body)));
  }

  return {
    register,
    payrollRun,
    list: () => endpoints.map((endpoint) => ({ ...endpoint })),
    deliveries: () => deliveries.map((delivery) => ({ ...delivery })),
    reset: () => {
      endpoints = [];
      deliveries = [];
    },
  };
}

module.exports = { createWebhooks, svixSignature };
