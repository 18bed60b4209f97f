'use strict';
// Failures are thrown as ReplyError carrying the exact HTTP reply, so a check deep inside a handler can end
// the request without every caller passing error values around. The three error dialects of the sandbox
// (API error object, RFC 6749 OAuth error, HTML page for the consent screen) are built here and only here.

const { jsonReply, htmlReply } = require('./http-util');

class ReplyError extends Error {
  constructor(reply, message) {
    super(message || `HTTP ${reply.status}`);
    this.reply = reply;
  }
}

// `error` texts of the API error object. 403 and 404 use the wording of the real service's samples,
// including its spelling of "Ressource".
const API_ERROR_NAMES = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden action',
  404: 'Ressource not found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function apiErrorName(status) {
  return API_ERROR_NAMES[status] || (status >= 500 ? 'Server Error' : 'Client Error');
}

/** The spec's error object plus `code` equal to the status, as the samples show. */
function apiErrorBody(status, details, errors) {
  const body = { code: status, error: apiErrorName(status) };
  if (details !== undefined) body.details = details;
  if (errors !== undefined) body.errors = errors;
  return body;
}

function apiError(status, details, { errors, headers } = {}) {
  return new ReplyError(jsonReply(status, apiErrorBody(status, details, errors), headers), details);
}

// RFC 6749 section 5.1 asks for no-store on token responses; applied to every OAuth JSON answer.
const OAUTH_NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

function oauthJson(status, body, headers) {
  return jsonReply(status, body, { ...OAUTH_NO_STORE, ...headers });
}

/** RFC 6749 section 5.2 error: `{error, error_description}`. */
function oauthError(status, error, description, headers) {
  return new ReplyError(oauthJson(status, { error, error_description: description }, headers), description);
}

function escapeHtml(text) {
  return String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Error page shown to the person in the browser (never redirected to the client). */
function htmlErrorPage(status, title, message) {
  const page = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>
<h1 id="error-title">${escapeHtml(title)}</h1>
<p id="error-message">${escapeHtml(message)}</p>
<p>Partner Payroll sandbox authorization server</p>
</body>
</html>
`;
  return new ReplyError(htmlReply(status, page), message);
}

/** Invalid input to a sandbox store (token, fault, status...): control endpoints answer it as 400. */
class InputError extends Error {
  constructor(message, status = 400) {
    super(message);
    this.status = status;
  }
}

module.exports = {
  ReplyError,
  InputError,
  apiError,
  apiErrorBody,
  apiErrorName,
  oauthError,
  oauthJson,
  htmlErrorPage,
  escapeHtml,
};
