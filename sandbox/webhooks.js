'use strict';
// Partner webhooks as the real service delivers them through Svix (real-service facts; the spec describes
// none). Events: `payroll.run` `{companyId, effectiveDate, payrollMonth}` (named by the facts) and
// `integration.activated` / `integration.deactivated` `{companyId, effectiveDate}` (an assumption of the
// sandbox, sent on demand only), dates written like the service's public example
// (`2023-01-30T13:02:33+00:00`). The real service has no subscription API (the provider enables it on
// request), so endpoints are registered through /_sandbox/webhooks only.
//
// Delivery as Svix does it: at least once. An attempt succeeds with a 2xx within 15 s; anything else is
// retried with the SAME message id (new timestamp, new signature) on Svix's schedule, which a setting
// shortens for tests; an answer with `webhook-delivery: abort-message` stops the message. A message can be
// re-sent later (the portal's replay), same id. A secret rotation keeps the previous secret signing too for
// 24 h (shortened by a setting), so the header carries two signatures. An endpoint can use the brandless
// Standard Webhooks headers (`webhook-id`...) instead of `svix-*`.

const crypto = require('node:crypto');
const { InputError } = require('./errors');

const SVIX_RETRY_SCHEDULE_MS = [5e3, 5 * 60e3, 30 * 60e3, 2 * 3600e3, 5 * 3600e3, 10 * 3600e3, 10 * 3600e3];
const SVIX_ATTEMPT_TIMEOUT_MS = 15e3;
const SVIX_ROTATION_OVERLAP_MS = 24 * 3600e3;
const DEFAULT_SETTINGS = {
  retryScheduleMs: SVIX_RETRY_SCHEDULE_MS,
  attemptTimeoutMs: SVIX_ATTEMPT_TIMEOUT_MS,
  rotationOverlapMs: SVIX_ROTATION_OVERLAP_MS,
};
const MAX_ATTEMPTS_KEPT = 2000;
const MAX_MESSAGES_KEPT = 1000;
const SECRET_SHAPE = /^whsec_[A-Za-z0-9+/=]{16,}$/;
const EVENT_TYPES = ['payroll.run', 'integration.activated', 'integration.deactivated'];

/** Svix signature: base64 HMAC-SHA256, keyed by the base64 part of `whsec_...`, of `${id}.${timestamp}.${body}`. */
function svixSignature(secret, id, timestamp, body) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** `2026-11-27T18:00:00.000Z` -> `2026-11-27T18:00:00+00:00`, as the service's example writes dates. */
function serviceDate(value) {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new InputError('effectiveDate must be an ISO date-time');
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

const newSecret = () => `whsec_${crypto.randomBytes(24).toString('base64')}`;
const newMessageId = () => `msg_${crypto.randomBytes(12).toString('hex')}`;

function checkedSecret(secret) {
  if (secret === undefined) return newSecret();
  if (typeof secret === 'string' && SECRET_SHAPE.test(secret)) return secret;
  throw new InputError('secret must look like whsec_<base64>');
}

function checkedSchedule(value, name) {
  if (!Array.isArray(value) || value.some((ms) => !Number.isInteger(ms) || ms < 0)) {
    throw new InputError(`${name} must be a list of milliseconds (integers >= 0)`);
  }
  return [...value];
}

function checkedMs(value, name) {
  if (!Number.isInteger(value) || value < 1) throw new InputError(`${name} must be a positive number of milliseconds`);
  return value;
}

/** `settingsOverrides`: as configure() takes them. `onChange()` is called after every change of the endpoints. */
function createWebhooks(settingsOverrides = {}, { onChange = () => {} } = {}) {
  const startSettings = { ...DEFAULT_SETTINGS, ...settingsOverrides };
  let settings = { ...startSettings };
  let endpoints = [];
  let messages = [];
  let attempts = [];
  let timers = new Set();
  let nextEndpoint = 1;
  let generation = 0; // a reset ends every retry chain of the previous generation

  function endpointById(id) {
    const endpoint = endpoints.find((candidate) => candidate.id === id);
    if (!endpoint) throw new InputError(`No webhook endpoint ${id}`, 404);
    return endpoint;
  }

  const view = (endpoint) => ({
    id: endpoint.id,
    url: endpoint.url,
    secret: endpoint.secret,
    headers: endpoint.headers,
    previousSecrets: endpoint.previousSecrets.map(({ secret, until }) => ({ secret, until: new Date(until).toISOString() })),
  });

  function register({ url, secret, headers = 'svix' } = {}) {
    let parsed;
    try {
      parsed = new URL(url);
    } catch {
      throw new InputError('url must be an absolute http(s) URL');
    }
    if (!/^https?:$/.test(parsed.protocol)) throw new InputError('url must be an absolute http(s) URL');
    if (!['svix', 'webhook'].includes(headers)) throw new InputError('headers must be "svix" or "webhook"');
    const endpoint = { id: `ep_${nextEndpoint}`, url: parsed.toString(), secret: checkedSecret(secret), headers, previousSecrets: [] };
    nextEndpoint += 1;
    endpoints.push(endpoint);
    onChange();
    return view(endpoint);
  }

  /** Endpoints saved by a previous run (as list() gives them), same ids; before any other endpoint. */
  function restore(saved) {
    for (const { id, url, secret, headers, previousSecrets = [] } of saved) {
      const number = /^ep_(\d+)$/.exec(id);
      if (!number || typeof url !== 'string' || !SECRET_SHAPE.test(secret) || !['svix', 'webhook'].includes(headers)) {
        throw new InputError(`Saved webhook endpoint ${JSON.stringify(id)} is malformed`);
      }
      const rotated = previousSecrets.map((previous) => ({ secret: previous.secret, until: Date.parse(previous.until) }));
      endpoints.push({ id, url, secret, headers, previousSecrets: rotated });
      nextEndpoint = Math.max(nextEndpoint, Number(number[1]) + 1);
    }
  }

  /** A new secret; the previous one keeps signing for the rotation overlap. */
  function rotate(endpointId, { secret } = {}) {
    const endpoint = endpointById(endpointId);
    const next = checkedSecret(secret);
    endpoint.previousSecrets.push({ secret: endpoint.secret, until: Date.now() + settings.rotationOverlapMs });
    endpoint.secret = next;
    onChange();
    return view(endpoint);
  }

  function configure(body = {}) {
    const next = { ...settings };
    if (body.retryScheduleMs !== undefined) next.retryScheduleMs = checkedSchedule(body.retryScheduleMs, 'retryScheduleMs');
    if (body.attemptTimeoutMs !== undefined) next.attemptTimeoutMs = checkedMs(body.attemptTimeoutMs, 'attemptTimeoutMs');
    if (body.rotationOverlapMs !== undefined) next.rotationOverlapMs = checkedMs(body.rotationOverlapMs, 'rotationOverlapMs');
    settings = next;
    return { ...settings };
  }

  function signatureHeader(endpoint, id, timestamp, body) {
    const now = Date.now();
    const secrets = [endpoint.secret, ...endpoint.previousSecrets.filter(({ until }) => until > now).map(({ secret }) => secret)];
    return secrets.map((secret) => svixSignature(secret, id, timestamp, body)).join(' ');
  }

  function keep(list, item, max) {
    list.push(item);
    if (list.length > max) list.shift();
  }

  /** One attempt; schedules the next one on failure. Resolves when this attempt is over. */
  async function attempt(delivery, number) {
    const { endpoint, message } = delivery;
    const timestamp = String(Math.floor(Date.now() / 1000) + message.timestampOffsetSeconds);
    const prefix = endpoint.headers;
    const record = { messageId: message.id, endpointId: endpoint.id, url: endpoint.url, attempt: number, at: new Date().toISOString(), status: null, response: null, error: null, durationMs: null, body: JSON.parse(message.body) };
    const started = performance.now();
    keep(attempts, record, MAX_ATTEMPTS_KEPT);
    let aborted = false;
    try {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          [`${prefix}-id`]: message.id,
          [`${prefix}-timestamp`]: timestamp,
          [`${prefix}-signature`]: signatureHeader(endpoint, message.id, timestamp, message.body),
        },
        body: message.body,
        signal: AbortSignal.timeout(settings.attemptTimeoutMs),
      });
      record.status = response.status;
      aborted = response.headers.get('webhook-delivery') === 'abort-message';
      // As Svix's portal shows an attempt's response: what the receiver said, cut short.
      record.response = (await response.text()).slice(0, 500);
    } catch (error) {
      record.error = error.message;
    }
    // From the request's start to the end of the answer: what the receiver makes the sender wait.
    record.durationMs = Math.round((performance.now() - started) * 10) / 10;
    const succeeded = record.status !== null && record.status >= 200 && record.status < 300;
    delivery.attempts = number;
    if (succeeded || aborted) {
      delivery.state = succeeded ? 'delivered' : 'aborted';
      return;
    }
    const wait = settings.retryScheduleMs[number - 1];
    if (wait === undefined || delivery.generation !== generation) {
      delivery.state = 'failed';
      return;
    }
    delivery.state = 'retrying';
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (delivery.generation === generation) void attempt(delivery, number + 1);
    }, wait);
    timer.unref();
    timers.add(timer);
  }

  /** Delivers a message to the endpoints (all, or one); resolves when every first attempt is over. */
  function dispatch(message, endpointId) {
    const targets = endpointId ? [endpointById(endpointId)] : endpoints;
    const deliveries = targets.map((endpoint) => ({ endpoint, message, state: 'sending', attempts: 0, generation }));
    message.deliveries.push(...deliveries);
    return Promise.all(deliveries.map((delivery) => attempt(delivery, 1))).then(() => messageView(message));
  }

  const messageView = (message) => ({
    id: message.id,
    type: message.type,
    body: JSON.parse(message.body),
    deliveries: message.deliveries.map((delivery) => ({ endpointId: delivery.endpoint.id, state: delivery.state, attempts: delivery.attempts })),
  });

  /** A new message (a new id unless one is given), sent now. */
  function send({ type, data, id, timestampOffsetSeconds = 0, endpointId } = {}) {
    if (!EVENT_TYPES.includes(type)) throw new InputError(`type must be one of ${EVENT_TYPES.join(', ')}`);
    if (!data || typeof data !== 'object') throw new InputError('data must be an object');
    if (!Number.isInteger(timestampOffsetSeconds)) throw new InputError('timestampOffsetSeconds must be an integer');
    const message = { id: id || newMessageId(), type, body: JSON.stringify({ type, data }), timestampOffsetSeconds, deliveries: [] };
    keep(messages, message, MAX_MESSAGES_KEPT);
    return dispatch(message, endpointId);
  }

  /** The portal's "Resend": the same message (same id, same body) again, to all endpoints or one. */
  function resend(messageId, { endpointId } = {}) {
    const message = messages.find((candidate) => candidate.id === messageId);
    if (!message) throw new InputError(`No message ${messageId}`, 404);
    return dispatch(message, endpointId);
  }

  function payrollRun({ companyId, month, executionEndDate, ...rest }) {
    return send({ ...rest, type: 'payroll.run', data: { companyId, effectiveDate: serviceDate(executionEndDate), payrollMonth: month } });
  }

  function integration({ companyId, event, effectiveDate = new Date().toISOString(), ...rest }) {
    if (!['activated', 'deactivated'].includes(event)) throw new InputError('event must be "activated" or "deactivated"');
    if (typeof companyId !== 'string' || !companyId) throw new InputError('companyId is required');
    return send({ ...rest, type: `integration.${event}`, data: { companyId, effectiveDate: serviceDate(effectiveDate) } });
  }

  function reset() {
    generation += 1;
    for (const timer of timers) clearTimeout(timer);
    timers = new Set();
    endpoints = [];
    messages = [];
    attempts = [];
    nextEndpoint = 1;
    settings = { ...startSettings };
    onChange();
  }

  return {
    register,
    restore,
    rotate,
    configure,
    send,
    resend,
    payrollRun,
    integration,
    settings: () => ({ ...settings }),
    list: () => endpoints.map(view),
    messages: () => messages.map(messageView),
    deliveries: () => attempts.map((record) => ({ ...record })),
    /** Retries still scheduled. */
    pending: () => timers.size,
    reset,
  };
}

module.exports = { createWebhooks, svixSignature, serviceDate, SVIX_RETRY_SCHEDULE_MS };
