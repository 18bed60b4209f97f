'use strict';
// Injected faults for the next N matching API/OAuth requests: an error status (429/500/503...), a delay,
// a truncated body, a malformed 200, an HTML sign-in page served with 200, a redirect (to the same origin
// or to the signed-storage origin, see storage.js), or a connection reset; a status or reset can come
// before the operation runs or after it took effect (a proxy failing after the upstream did its work).
// Matching: optional method, optional path (substring, or a regular expression when it starts with '^')
// against the full request path, e.g. /api/v1/companies/FR1001, and optional query values, e.g. {"date": "202611"}.

const { InputError, apiErrorBody } = require('./errors');
const { jsonReply, htmlReply, emptyReply, contentTypeOf } = require('./http-util');
const { rateLimitExceededReply } = require('./rate-limit');

const FAULT_TYPES = ['status', 'delay', 'truncate', 'malformed', 'html200', 'redirect', 'reset'];
const MAX_DELAY_MS = 120000;
const REDIRECT_STATUSES = [301, 302, 303, 307, 308];
const REDIRECT_TARGETS = ['same', 'other'];

function isNonNegativeInteger(value) {
  return Number.isInteger(value) && value >= 0;
}

function validateFault(spec) {
  if (!spec || typeof spec !== 'object') throw new InputError('Fault must be a JSON object');
  const { method, path, query, count = 1, type, status, retryAfter, delayMs, afterEffect, html, to } = spec;
  if (!FAULT_TYPES.includes(type)) throw new InputError(`type must be one of ${FAULT_TYPES.join(', ')}`);
  if (!(Number.isInteger(count) && count > 0)) throw new InputError('count must be a positive integer');
  if (method !== undefined && (typeof method !== 'string' || !method)) throw new InputError('method must be a string');
  if (path !== undefined && (typeof path !== 'string' || !path)) throw new InputError('path must be a non-empty string');
  if (query !== undefined && !(query && typeof query === 'object' && !Array.isArray(query) && Object.values(query).every((value) => typeof value === 'string'))) {
    throw new InputError('query must be an object of string values, e.g. {"date": "202611"}');
  }
  let pathRegex = null;
  if (path && path.startsWith('^')) {
    try {
      pathRegex = new RegExp(path);
    } catch (error) {
      throw new InputError(`path is not a valid regular expression: ${error.message}`);
    }
  }
  if (type === 'status' && !(Number.isInteger(status) && status >= 400 && status <= 599)) {
    throw new InputError('status faults need an integer status between 400 and 599 (e.g. 429, 500, 503)');
  }
  if (type === 'redirect' && !REDIRECT_STATUSES.includes(status)) {
    throw new InputError(`redirect faults need a status among ${REDIRECT_STATUSES.join(', ')}`);
  }
  if (type === 'redirect' && !REDIRECT_TARGETS.includes(to)) {
    throw new InputError('redirect faults need to: "same" (this origin) or "other" (the signed-storage origin)');
  }
  if (type !== 'redirect' && to !== undefined) throw new InputError('to applies to redirect faults');
  if (retryAfter !== undefined && !isNonNegativeInteger(retryAfter)) throw new InputError('retryAfter must be a whole number of seconds');
  if (type === 'delay' && !(isNonNegativeInteger(delayMs) && delayMs <= MAX_DELAY_MS)) {
    throw new InputError(`delay faults need delayMs between 0 and ${MAX_DELAY_MS}`);
  }
  if (afterEffect !== undefined && typeof afterEffect !== 'boolean') throw new InputError('afterEffect must be a boolean');
  if (afterEffect && type !== 'status' && type !== 'reset' && type !== 'delay') {
    throw new InputError('afterEffect applies to status, reset and delay faults');
  }
  if (html !== undefined && typeof html !== 'boolean') throw new InputError('html must be a boolean');
  // malformed + html is the same fault as html200 (a sign-in page instead of the operation).
  if (html && type !== 'status' && type !== 'malformed') throw new InputError('html applies to status and malformed faults');
  return {
    method: method ? method.toUpperCase() : null,
    path: path || null,
    query: query || null,
    pathRegex,
    count,
    type,
    status,
    retryAfter,
    delayMs,
    afterEffect: afterEffect || undefined,
    html: html || undefined,
    to,
  };
}

function publicView(fault) {
  const { pathRegex, ...rest } = fault;
  return Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined && value !== null));
}

function createFaultList() {
  let faults = [];
  let nextId = 1;

  function add(spec) {
    const fault = { id: nextId, ...validateFault(spec), remaining: spec.count || 1 };
    nextId += 1;
    faults.push(fault);
    return publicView(fault);
  }

  function matches(fault, method, path, searchParams) {
    if (fault.method && fault.method !== method) return false;
    if (fault.query && !Object.entries(fault.query).every(([name, value]) => searchParams?.get(name) === value)) return false;
    if (fault.pathRegex) return fault.pathRegex.test(path);
    return !fault.path || path.includes(fault.path);
  }

  /** The first fault matching the request, consumed once (removed when used up), or null. */
  function take(method, path, searchParams) {
    const fault = faults.find((candidate) => matches(candidate, method, path, searchParams));
    if (!fault) return null;
    fault.remaining -= 1;
    if (fault.remaining === 0) faults = faults.filter((candidate) => candidate !== fault);
    return fault;
  }

  return {
    add,
    take,
    list: () => faults.map(publicView),
    clear: () => {
      faults = [];
    },
  };
}

/**
 * Reply of a `status` fault; 429 mimics the real rate limiter, Retry-After only when injected.
 * `html` gives the page a reverse proxy serves instead of the API's JSON error.
 */
function statusFaultReply(fault, rateLimitForMethod) {
  const headers = fault.retryAfter === undefined ? {} : { 'Retry-After': String(fault.retryAfter) };
  if (fault.html) {
    const page = `<html><head><title>${fault.status} Error</title></head><body><h1>${fault.status} Error</h1><p>The upstream server did not answer properly.</p></body></html>\n`;
    return htmlReply(fault.status, page, headers);
  }
  if (fault.status === 429) return rateLimitExceededReply(rateLimitForMethod, fault.retryAfter);
  return jsonReply(fault.status, apiErrorBody(fault.status, 'Injected fault (sandbox)'), headers);
}

/** Whether the fault serves the sign-in page: `html200`, or `malformed` with `html: true`. */
function isSignInPage(fault) {
  return fault.type === 'html200' || (fault.type === 'malformed' && Boolean(fault.html));
}

/**
 * Whether the fault replaces the operation (it never runs) rather than its answer. A redirect never runs
 * the operation either: the client must follow it (server.js answers it).
 */
function preventsOperation(fault) {
  if (fault.type === 'redirect' || isSignInPage(fault)) return true;
  return (fault.type === 'status' || fault.type === 'reset') && !fault.afterEffect;
}

/** Whether a delay comes before the operation runs (the default) or between its effect and its answer. */
function delayBefore(fault) {
  return fault.type === 'delay' && !fault.afterEffect;
}

/** A 200 whose body cannot be what the client expects: broken JSON, or an HTML page for other types. */
function malformedReply(original) {
  const contentType = contentTypeOf(original) || 'application/json; charset=utf-8';
  const body = /json/i.test(contentType)
    ? '{"code": 200, "data": [{"id": "unterminated'
    : '<html><body><h1>Upstream answered something unexpected</h1></body></html>\n';
  return { status: 200, headers: { 'Content-Type': contentType }, body: Buffer.from(body) };
}

/**
 * The page a client gets when something between it and the API (a corporate SSO proxy, a captive portal,
 * an expired session at a gateway) answers in the API's place: 200, text/html, a sign-in form.
 */
const SIGN_IN_PAGE = `<html><head><title>Sign in</title>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/sso/static/login.css">
</head>
<body class="login">
<main>
<h1>Sign in</h1>
<p>Your session has expired. Sign in to continue to Partner Payroll.</p>
<form id="login-form" method="post" action="/sso/login">
<input type="hidden" name="return_to" value="/">
<label for="username">Email address</label>
<input id="username" name="username" type="email" autocomplete="username" required>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<p><a href="/sso/forgot-password">Forgot your password?</a></p>
</main>
</body>
</html>
`;

function signInPageReply() {
  return htmlReply(200, SIGN_IN_PAGE, { 'Cache-Control': 'no-store' });
}

/** The answer of a redirect fault to `location`; no body, never cached (301 and 308 would be otherwise). */
function redirectFaultReply(fault, location) {
  return emptyReply(fault.status, { Location: location, 'Cache-Control': 'no-store' });
}

/**
 * Location of a same-origin redirect: the same path and query plus `redirected=<hop>` (1, then 2 when the
 * redirected request is redirected again), which the API and the authorization server ignore.
 */
function sameOriginLocation(origin, url) {
  const target = new URL(`${url.pathname}${url.search}`, origin);
  const hop = Number.parseInt(target.searchParams.get('redirected'), 10);
  target.searchParams.set('redirected', String(Number.isInteger(hop) && hop > 0 ? hop + 1 : 1));
  return target.toString();
}

module.exports = {
  createFaultList,
  statusFaultReply,
  malformedReply,
  signInPageReply,
  redirectFaultReply,
  sameOriginLocation,
  isSignInPage,
  preventsOperation,
  delayBefore,
  FAULT_TYPES,
  REDIRECT_STATUSES,
};
