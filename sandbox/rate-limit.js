'use strict';
// Rate limits as the real service applies them: per client application (not per token), per second,
// 50 requests for reads and 20 for writes. Off by default so ordinary tests never trip over it; turn it on
// with the `rateLimits` option or POST /_sandbox/rate-limits. The 429 answer is also used by injected faults.

const { jsonReply } = require('./http-util');
const { InputError } = require('./errors');

const DEFAULT_LIMITS = Object.freeze({ enabled: false, readsPerSecond: 50, writesPerSecond: 20 });

function isRead(method) {
  return method === 'GET' || method === 'HEAD';
}

function limitHeaders(limit, remaining) {
  return { 'X-RateLimit-Limit-Second': String(limit), 'X-RateLimit-Remaining-Second': String(Math.max(remaining, 0)) };
}

/** The real service's 429 body (not the error object), with its headers; Retry-After only when given. */
function rateLimitExceededReply(limit, retryAfterSeconds) {
  const headers = limitHeaders(limit, 0);
  if (retryAfterSeconds !== undefined && retryAfterSeconds !== null) headers['Retry-After'] = String(retryAfterSeconds);
  return jsonReply(429, { message: 'API rate limit exceeded' }, headers);
}

/**
 * Whose budget a request counts against. The real service limits per client application, so every
 * company's token issued to one OAuth client (a partner serving hundreds of companies) shares one budget.
 * A company API key belongs to no application: each key has a budget of its own.
 */
function rateLimitKey(token) {
  return token.clientId !== null ? `client:${token.clientId}` : `apiKey:${token.token}`;
}

function createRateLimiter(initial) {
  let config = { ...DEFAULT_LIMITS, ...initial };
  const windows = new Map(); // `${key}|${read|write}` -> {second, count}

  function configure(changes = {}) {
    if (!changes || typeof changes !== 'object') throw new InputError('Rate limits must be a JSON object');
    const next = { ...config };
    if (changes.enabled !== undefined) next.enabled = Boolean(changes.enabled);
    for (const name of ['readsPerSecond', 'writesPerSecond']) {
      if (changes[name] === undefined) continue;
      if (!(Number.isInteger(changes[name]) && changes[name] > 0)) throw new InputError(`${name} must be a positive integer`);
      next[name] = changes[name];
    }
    config = next;
    windows.clear();
    return { ...config };
  }

  function limitFor(method) {
    return isRead(method) ? config.readsPerSecond : config.writesPerSecond;
  }

  /** Counts one request of `key`; null when disabled, else `{allowed, headers}`. */
  function consume(key, method) {
    if (!config.enabled) return null;
    const limit = limitFor(method);
    const windowKey = `${key}|${isRead(method) ? 'read' : 'write'}`;
    const second = Math.floor(Date.now() / 1000);
    let window = windows.get(windowKey);
    if (!window || window.second !== second) {
      window = { second, count: 0 };
      windows.set(windowKey, window);
    }
    window.count += 1;
    return { allowed: window.count <= limit, limit, headers: limitHeaders(limit, limit - window.count) };
  }

  return {
    configure,
    consume,
    limitFor,
    current: () => ({ ...config }),
    reset: () => configure({ ...DEFAULT_LIMITS, ...initial }),
  };
}

module.exports = { createRateLimiter, rateLimitExceededReply, rateLimitKey, DEFAULT_LIMITS };
