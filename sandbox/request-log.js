'use strict';
// Log of API and OAuth requests (control requests are not logged), read by tests through
// GET /_sandbox/requests. Credentials are masked; bodies are never logged. The owner of the bearer token
// (company and client) is logged instead of the token, so a test can check that every request carried the
// token of the company in its path.

const { maskSecret } = require('./tokens');
const { queryObject } = require('./http-util');

const MAX_ENTRIES = 5000;

/** 'Bearer …abcd' (scheme kept, secret reduced to its last 4 characters) or null. */
function maskAuthorization(header) {
  if (!header) return null;
  const [scheme, ...rest] = String(header).trim().split(/\s+/);
  return rest.length ? `${scheme} ${maskSecret(rest.join(' '))}` : maskSecret(scheme);
}

function createRequestLog() {
  const entries = [];

  /**
   * `connection`: the number of the TCP connection the request came on (1, 2, ... since start).
   * `token`: the token record of the request's `Authorization: Bearer` value when it arrived, or null.
   */
  function record(req, url, { status, fault, connection, token }) {
    entries.push({
      time: new Date().toISOString(),
      method: req.method,
      path: url.pathname,
      query: queryObject(url.searchParams),
      status,
      authorization: maskAuthorization(req.headers.authorization),
      tokenCompanyId: token ? token.companyId : null,
      tokenClientId: token ? token.clientId : null,
      contentType: req.headers['content-type'] || null,
      fault: fault || null,
      connection: connection || null,
    });
    if (entries.length > MAX_ENTRIES) entries.shift();
  }

  return {
    record,
    list: () => entries.slice(),
    clear: () => {
      entries.length = 0;
    },
  };
}

module.exports = { createRequestLog, maskAuthorization };
