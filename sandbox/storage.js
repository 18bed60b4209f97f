'use strict';
// The "signed storage" origin: a second HTTP server on its own port (so a second origin), where
// `redirect` faults with `to: "other"` send clients, as an API that hands a download over to an S3-style
// pre-signed URL does. The URL carries a random, token-free signature that stands for the original request
// (method, path, query, headers including its Authorization, body); the storage server answers it with
// what the API would answer that original request now, computed by the sandbox itself, and needs no
// Authorization header. Like S3, it refuses (400) any request that carries one: a client that forwards
// the API's bearer token across origins is caught here. Every request it receives is logged, with the
// Authorization header as received (not masked: tests compare it with the token).

const crypto = require('node:crypto');
const http = require('node:http');
const { Readable } = require('node:stream');
const { escapeHtml } = require('./errors');
const { writeReply, queryObject } = require('./http-util');

const STORAGE_PREFIX = '/storage';
const MAX_SIGNED = 1000;
const MAX_LOG_ENTRIES = 5000;
// Clients follow a 301, 302 or 303 with a GET (a POST becomes a GET), so GET and HEAD are accepted on
// every signed URL besides the original method; the answer is always the original request's.
const ALWAYS_ALLOWED = ['GET', 'HEAD'];

/** An S3-style XML error body. */
function storageError(status, code, message, extra = {}) {
  const requestId = crypto.randomBytes(8).toString('hex').toUpperCase();
  const fields = Object.entries({ Code: code, Message: message, ...extra, RequestId: requestId })
    .map(([name, value]) => `<${name}>${escapeHtml(value)}</${name}>`)
    .join('');
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error>${fields}</Error>\n`;
  return {
    status,
    headers: { 'Content-Type': 'application/xml', 'x-amz-request-id': requestId },
    body: Buffer.from(body),
  };
}

/** A request-like readable the sandbox's handlers accept: method, url, headers and the original body. */
function replayedRequest(signed) {
  const req = Readable.from(signed.body.length > 0 ? [signed.body] : []);
  req.method = signed.method;
  req.url = `${signed.path}${signed.search}`;
  req.headers = { ...signed.headers };
  return req;
}

/**
 * `answer(req, url)` gives the sandbox's reply value for a request (no fault, no request log).
 */
function createSignedStorage({ answer }) {
  const signedUrls = new Map();
  const log = [];
  let server = null;
  let origin = null;

  /** Signs the original request; returns the absolute storage URL that stands for it. */
  function sign({ method, headers, url, body, status }) {
    const signature = crypto.randomBytes(18).toString('base64url');
    const location = `${origin}${STORAGE_PREFIX}/${signature}${url.pathname}${url.search}`;
    signedUrls.set(signature, {
      method,
      path: url.pathname,
      search: url.search,
      headers: { ...headers },
      body: body || Buffer.alloc(0),
      status,
      location,
      time: new Date().toISOString(),
    });
    if (signedUrls.size > MAX_SIGNED) signedUrls.delete(signedUrls.keys().next().value);
    return location;
  }

  async function replyTo(req, url) {
    // S3 refuses a pre-signed request that also carries an Authorization header, before anything else.
    if (req.headers.authorization !== undefined) {
      return storageError(400, 'InvalidArgument',
        'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
        { ArgumentName: 'Authorization' });
    }
    const match = /^\/storage\/([^/]+)(\/.*)$/.exec(url.pathname);
    if (!match) return storageError(404, 'NoSuchKey', 'The specified key does not exist.');
    const signed = signedUrls.get(match[1]);
    if (!signed) return storageError(403, 'AccessDenied', 'Request has expired');
    if (match[2] !== signed.path || !(req.method === signed.method || ALWAYS_ALLOWED.includes(req.method))) {
      return storageError(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
    }
    return answer(replayedRequest(signed), new URL(`${signed.path}${signed.search}`, 'http://sandbox.invalid'));
  }

  async function serve(req, res) {
    let url;
    try {
      url = new URL(req.url, 'http://storage.invalid');
    } catch {
      url = new URL('http://storage.invalid/');
    }
    const match = /^\/storage\/([^/]+)(\/.*)$/.exec(url.pathname);
    const entry = {
      time: new Date().toISOString(),
      method: req.method,
      path: url.pathname,
      query: queryObject(url.searchParams),
      authorization: req.headers.authorization === undefined ? null : req.headers.authorization,
      originalPath: match ? match[2] : null,
      status: null,
    };
    log.push(entry);
    if (log.length > MAX_LOG_ENTRIES) log.shift();
    req.resume(); // the body of a followed 307/308 is drained: the answer is the original request's
    const reply = await replyTo(req, url);
    entry.status = reply.status;
    writeReply(res, reply);
  }

  async function listen(port, host, originFor) {
    server = http.createServer((req, res) => {
      serve(req, res).catch((error) => {
        console.error('[sandbox storage] request failed:', error);
        if (!res.headersSent) res.destroy();
      });
    });
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    origin = originFor(host, server.address().port);
    return origin;
  }

  function close() {
    if (!server) return Promise.resolve();
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  return {
    sign,
    listen,
    close,
    get url() {
      return origin;
    },
    requests: () => log.map((entry) => ({ ...entry })),
    clearRequests: () => {
      log.length = 0;
    },
    signed: () => [...signedUrls.values()].map(({ method, path, search, status, location, time }) => ({
      location,
      method,
      path,
      query: queryObject(new URLSearchParams(search)),
      status,
      time,
    })),
    /** Forgets the log and every signed URL (they answer 403 "Request has expired" afterwards). */
    reset: () => {
      log.length = 0;
      signedUrls.clear();
    },
  };
}

module.exports = { createSignedStorage, STORAGE_PREFIX };
