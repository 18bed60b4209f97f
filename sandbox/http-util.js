'use strict';
// Replies are plain values `{status, headers, body: Buffer}` built by handlers and written in one place
// (writeReply). Keeping them as values lets the fault injector replace or cut a reply after the handler ran.

const JSON_TYPE = 'application/json; charset=utf-8';
const MAX_BODY_BYTES = 1024 * 1024;

function reply(status, headers, body) {
  return { status, headers: { ...headers }, body: body === undefined ? Buffer.alloc(0) : Buffer.from(body) };
}

function jsonReply(status, value, headers) {
  return reply(status, { 'Content-Type': JSON_TYPE, ...headers }, JSON.stringify(value));
}

function binaryReply(contentType, buffer, headers) {
  // No copy: payment files may weigh tens of MB and are cached read-only.
  return { status: 200, headers: { 'Content-Type': contentType, ...headers }, body: buffer };
}

function htmlReply(status, html, headers) {
  return reply(status, { 'Content-Type': 'text/html; charset=utf-8', 'X-Frame-Options': 'DENY', ...headers }, html);
}

function redirectReply(location) {
  return reply(302, { Location: location, 'Cache-Control': 'no-store' });
}

function emptyReply(status, headers) {
  return reply(status, headers);
}

function withHeaders(original, headers) {
  return { ...original, headers: { ...original.headers, ...headers } };
}

function contentTypeOf(replyValue) {
  const key = Object.keys(replyValue.headers).find((name) => name.toLowerCase() === 'content-type');
  return key ? String(replyValue.headers[key]) : '';
}

function writeReply(res, replyValue) {
  const bodyAllowed = replyValue.status !== 204 && replyValue.status !== 304;
  const headers = { ...replyValue.headers };
  if (bodyAllowed) headers['Content-Length'] = replyValue.body.length;
  res.writeHead(replyValue.status, headers);
  res.end(bodyAllowed ? replyValue.body : undefined);
}

/**
 * Announces the full Content-Length, sends only the first half of the body, then kills the connection,
 * which is what a client sees when a connection drops mid-download.
 */
function writeTruncatedReply(res, replyValue) {
  const half = replyValue.body.subarray(0, Math.floor(replyValue.body.length / 2));
  res.writeHead(replyValue.status, { ...replyValue.headers, 'Content-Length': replyValue.body.length });
  res.flushHeaders();
  const cut = () => {
    if (res.socket) res.socket.destroy();
  };
  if (half.length === 0) cut();
  else res.write(half, cut);
}

class BodyTooLargeError extends Error {}

function readRequestBody(req, maxBytes = MAX_BODY_BYTES) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new BodyTooLargeError(`Request body larger than ${maxBytes} bytes`));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Lower-cased media type without parameters, '' when absent. */
function requestMediaType(req) {
  return String(req.headers['content-type'] || '').split(';')[0].trim().toLowerCase();
}

class BodyFormatError extends Error {}

/** First value of each parameter, plus the names sent more than once (RFC 6749 forbids repeating them). */
function firstValues(searchParams) {
  const fields = {};
  const repeated = [];
  for (const [name, value] of searchParams) {
    if (Object.prototype.hasOwnProperty.call(fields, name)) {
      if (!repeated.includes(name)) repeated.push(name);
    } else {
      fields[name] = value;
    }
  }
  return { fields, repeated };
}

/**
 * Reads a JSON or form-encoded body into a plain object. Form fields sent more than once are reported in
 * `repeated` (RFC 6749 forbids repeated parameters). An empty body gives `{}` whatever the content type.
 */
async function readFields(req, { allowForm = true, allowJson = true } = {}) {
  const raw = await readRequestBody(req);
  const mediaType = requestMediaType(req);
  if (raw.length === 0) return { mediaType, fields: {}, repeated: [] };
  if (allowJson && (mediaType === 'application/json' || mediaType.endsWith('+json'))) {
    let value;
    try {
      value = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new BodyFormatError('Request body is not valid JSON');
    }
    return { mediaType, fields: value, repeated: [] };
  }
  if (allowForm && mediaType === 'application/x-www-form-urlencoded') {
    return { mediaType, ...firstValues(new URLSearchParams(raw.toString('utf8'))) };
  }
  const accepted = [allowJson && 'application/json', allowForm && 'application/x-www-form-urlencoded'].filter(Boolean);
  throw new BodyFormatError(`Unsupported content type "${mediaType || 'none'}"; send ${accepted.join(' or ')}`);
}

/** Token of an `Authorization: Bearer <token>` header, or null. The scheme is case-insensitive (RFC 7235). */
function bearerToken(req) {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(String(req.headers.authorization || '').trim());
  return match ? match[1] : null;
}

/** Query as an object; a parameter sent several times becomes an array. */
function queryObject(searchParams) {
  const query = {};
  for (const [name, value] of searchParams) {
    if (name in query) query[name] = [].concat(query[name], value);
    else query[name] = value;
  }
  return query;
}

module.exports = {
  jsonReply,
  binaryReply,
  htmlReply,
  redirectReply,
  emptyReply,
  withHeaders,
  contentTypeOf,
  writeReply,
  writeTruncatedReply,
  readRequestBody,
  readFields,
  firstValues,
  requestMediaType,
  bearerToken,
  queryObject,
  BodyTooLargeError,
  BodyFormatError,
  JSON_TYPE,
};
