'use strict';
// Svix deliveries as the package's unit tests need them: test secrets (not real ones), signing, and a
// response object with Node's events, as n8n's Express response (TypeScript tests may not import `events`).

const crypto = require('node:crypto');
const { EventEmitter } = require('node:events');

/** Svix's published test vector. */
const SVIX_TEST_VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

/** The production endpoint's secret in the tests, and a second endpoint's (n8n's test URL). */
const ENDPOINT_SECRET = `whsec_${Buffer.from('partner-endpoint-secret-0123').toString('base64')}`;
const TEST_URL_ENDPOINT_SECRET = `whsec_${Buffer.from('test-url-endpoint-secret-99').toString('base64')}`;

/** `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, keyed by the base64 part of the secret. */
function svixSign(secret, id, timestamp, body) {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The parts of Express's response the trigger uses, emitting `finish` and `close` like Node's. */
class FakeResponse extends EventEmitter {
  constructor() {
    super();
    this.statusCode = 200;
    this.headers = {};
    this.body = undefined;
  }
  setHeader(name, value) {
    this.headers[name.toLowerCase()] = value;
  }
  status(code) {
    this.statusCode = code;
    return this;
  }
  json(body) {
    this.body = body;
    return this;
  }
  /** The sender closing the connection before n8n answered: `close` without `finish`. */
  senderGaveUp() {
    this.emit('close');
  }
  /** n8n's answer leaving: `finish` then `close`. */
  answer(status) {
    this.statusCode = status;
    this.emit('finish');
    this.emit('close');
  }
}

module.exports = { SVIX_TEST_VECTOR, ENDPOINT_SECRET, TEST_URL_ENDPOINT_SECRET, svixSign, FakeResponse };
