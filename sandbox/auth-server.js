'use strict';
// The authorization server (spec: Authentication): /authorize (consent screen), /token (authorization-code
// exchange) and /introspect. Error answers follow RFC 6749 since the spec does not show them.

const crypto = require('node:crypto');
const { ReplyError, oauthError, oauthJson, htmlErrorPage, InputError } = require('./errors');
const { htmlReply, redirectReply, readFields, firstValues, bearerToken, BodyFormatError, BodyTooLargeError } = require('./http-util');
const { parseScopes } = require('./scopes');
const { consentPage } = require('./consent-page');

const AUTHORIZE_PARAMS = ['client_id', 'redirect_uri', 'response_type', 'state', 'scope'];
const TOKEN_PARAMS = ['grant_type', 'code', 'redirect_uri', 'client_id', 'client_secret'];
const BASIC_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="partner-payroll-sandbox"' };

function safeEqual(a, b) {
  const digest = (value) => crypto.createHash('sha256').update(String(value)).digest();
  return crypto.timingSafeEqual(digest(a), digest(b));
}

/** `https://x/cb?a=1` + {code, state} keeping the existing query; undefined values are left out. */
function redirectTo(uri, params) {
  const target = new URL(uri);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) target.searchParams.append(name, value);
  }
  return target.toString();
}

/**
 * Client credentials of an HTTP Basic header (RFC 6749 2.3.1: id and secret are form-encoded before
 * base64). undefined when there is no Basic header (n8n sends an empty Authorization header in "body"
 * mode), null when it is malformed.
 */
function basicCredentials(req) {
  const match = /^Basic\s+(\S+)\s*$/i.exec(String(req.headers.authorization || '').trim());
  if (!match) return /^Basic\b/i.test(String(req.headers.authorization || '').trim()) ? null : undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const formDecode = (text) => decodeURIComponent(text.replace(/\+/g, ' '));
  try {
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

async function readOAuthFields(req, options) {
  try {
    return await readFields(req, options);
  } catch (error) {
    if (error instanceof BodyFormatError) throw oauthError(400, 'invalid_request', error.message);
    if (error instanceof BodyTooLargeError) throw oauthError(413, 'invalid_request', error.message);
    throw error;
  }
}

/**
 * `companies()`: the company directory the consent page offers. A `company_hint` query parameter (a sandbox
 * convenience, not in the API contract) preselects one of them; the person can still pick another.
 */
function createAuthServer({ clients, companies, tokens, codeTtlMs, basePath }) {
  const codes = new Map();

  // ---- /authorize ---------------------------------------------------------------------------------

  /**
   * Checks an authorization request (GET query or POSTed consent form). Problems with the client or its
   * redirect address are shown to the person, never redirected (RFC 6749 4.1.2.1); the others are sent
   * back to the client as `error` on the redirect address, with `state`.
   */
  function checkAuthorizationRequest({ fields, repeated }) {
    const { client_id: clientId, redirect_uri: redirectUri } = fields;
    if (!clientId || repeated.includes('client_id')) {
      throw htmlErrorPage(400, 'Invalid authorization request', 'The client_id parameter is missing or repeated.');
    }
    const client = clients.get(clientId);
    if (!client) throw htmlErrorPage(400, 'Unknown application', `No application is registered with client_id "${clientId}".`);
    if (!redirectUri || repeated.includes('redirect_uri')) {
      throw htmlErrorPage(400, 'Invalid authorization request', 'The redirect_uri parameter is missing or repeated.');
    }
    if (!clients.allowsRedirect(client.clientId, redirectUri)) {
      throw htmlErrorPage(400, 'Redirect address not registered', `"${redirectUri}" is not a registered redirect_uri of ${clientId}.`);
    }
    const state = fields.state;
    const fail = (error, description) =>
      new ReplyError(redirectReply(redirectTo(redirectUri, { error, error_description: description, state })), description);
    const repeatedParam = repeated.find((name) => AUTHORIZE_PARAMS.includes(name));
    if (repeatedParam) throw fail('invalid_request', `Parameter "${repeatedParam}" is repeated`);
    if (!fields.response_type) throw fail('invalid_request', 'response_type is required and must be "code"');
    if (fields.response_type !== 'code') throw fail('unsupported_response_type', 'Only response_type=code is supported');
    const scopes = parseScopes(fields.scope);
    const refused = scopes.filter((scope) => !client.allowedScopes.includes(scope));
    if (refused.length > 0) throw fail('invalid_scope', `Scope not allowed for ${clientId}: ${refused.join(' ')}`);
    const forwarded = Object.fromEntries(AUTHORIZE_PARAMS.filter((name) => fields[name] !== undefined).map((name) => [name, fields[name]]));
    return { client, redirectUri, state, scopes, forwarded, fail };
  }

  function showConsent(url) {
    const query = firstValues(url.searchParams);
    const request = checkAuthorizationRequest(query);
    // A hint that names no company served selects nothing: the page opens as without it.
    const selectedCompanyId = query.fields.company_hint || null;
    const page = consentPage({ ...request, companies: companies().list, selectedCompanyId, action: `${basePath}/authorize` });
    return htmlReply(200, page, { 'Cache-Control': 'no-store' });
  }

  async function decideConsent(req) {
    let body;
    try {
      body = await readFields(req, { allowJson: false });
    } catch (error) {
      if (error instanceof BodyFormatError || error instanceof BodyTooLargeError) throw htmlErrorPage(400, 'Invalid consent form', error.message);
      throw error;
    }
    const request = checkAuthorizationRequest(body);
    const { company_id: companyId, decision } = body.fields;
    if (decision === 'refuse') throw request.fail('access_denied', 'The company administrator refused access');
    if (decision !== 'accept') throw htmlErrorPage(400, 'Invalid consent form', 'Choose Accept or Refuse.');
    if (!companies().has(companyId)) throw htmlErrorPage(400, 'Unknown company', `No company "${companyId}".`);
    const code = crypto.randomBytes(24).toString('base64url');
    purgeExpiredCodes();
    codes.set(code, {
      clientId: request.client.clientId,
      redirectUri: request.redirectUri,
      companyId,
      scopes: request.scopes,
      expiresAt: Date.now() + codeTtlMs,
      used: false,
      issuedToken: null,
    });
    return redirectReply(redirectTo(request.redirectUri, { code, state: request.state }));
  }

  // Expired codes are kept one more TTL so a late exchange still hears "expired" rather than "unknown".
  function purgeExpiredCodes() {
    const now = Date.now();
    for (const [code, record] of codes) if (record.expiresAt + codeTtlMs < now) codes.delete(code);
  }

  // ---- /token -------------------------------------------------------------------------------------

  /**
   * The spec puts client_id and client_secret in the body. HTTP Basic (RFC 6749 2.3.1) is accepted too,
   * because n8n's OAuth2 client sends credentials that way when its "Authentication" option is "Header".
   * When both are sent they must agree.
   */
  function authenticateClient(req, fields) {
    const basic = basicCredentials(req);
    if (basic === null) throw oauthError(401, 'invalid_client', 'Malformed HTTP Basic client credentials', BASIC_CHALLENGE);
    if (basic && ((fields.client_id !== undefined && fields.client_id !== basic.id)
      || (fields.client_secret !== undefined && fields.client_secret !== basic.secret))) {
      throw oauthError(400, 'invalid_request', 'Client credentials differ between the Authorization header and the body');
    }
    const credentials = basic || { id: fields.client_id, secret: fields.client_secret };
    if (!credentials.id) throw oauthError(401, 'invalid_client', 'Client authentication is missing (client_id and client_secret)', BASIC_CHALLENGE);
    const client = clients.get(credentials.id);
    if (!client || credentials.secret === undefined || !safeEqual(credentials.secret, client.clientSecret)) {
      throw oauthError(401, 'invalid_client', 'Unknown client or wrong client secret', BASIC_CHALLENGE);
    }
    return client;
  }

  async function exchangeCode(req) {
    const { fields, repeated } = await readOAuthFields(req);
    if (!fields || typeof fields !== 'object' || Array.isArray(fields)) throw oauthError(400, 'invalid_request', 'The body must be an object of parameters');
    const wrongType = TOKEN_PARAMS.find((name) => fields[name] !== undefined && typeof fields[name] !== 'string');
    if (wrongType) throw oauthError(400, 'invalid_request', `Parameter "${wrongType}" must be a string`);
    if (repeated.length > 0) throw oauthError(400, 'invalid_request', `Parameter "${repeated[0]}" is repeated`);
    const client = authenticateClient(req, fields);
    if (!fields.grant_type) throw oauthError(400, 'invalid_request', 'grant_type is required');
    if (fields.grant_type !== 'authorization_code') throw oauthError(400, 'unsupported_grant_type', 'Only grant_type=authorization_code is supported');
    if (!fields.code) throw oauthError(400, 'invalid_request', 'code is required');
    const record = codes.get(fields.code);
    if (!record || record.clientId !== client.clientId) throw oauthError(400, 'invalid_grant', 'Unknown authorization code for this client');
    if (record.used) {
      // RFC 6749 4.1.2: a reused code revokes the token already issued from it.
      if (record.issuedToken) tokens.revokeToken(record.issuedToken);
      throw oauthError(400, 'invalid_grant', 'Authorization code already used; the token issued with it is revoked');
    }
    if (Date.now() > record.expiresAt) {
      codes.delete(fields.code);
      throw oauthError(400, 'invalid_grant', 'Authorization code expired');
    }
    if (!fields.redirect_uri) throw oauthError(400, 'invalid_request', 'redirect_uri is required (the one sent to /authorize)');
    if (fields.redirect_uri !== record.redirectUri) throw oauthError(400, 'invalid_grant', 'redirect_uri differs from the one sent to /authorize');
    record.used = true;
    const issued = tokens.issue({ companyId: record.companyId, scopes: record.scopes, clientId: client.clientId, kind: 'oauth' });
    record.issuedToken = issued.token;
    // Exactly what the real service answers: no expires_in, no refresh_token, no scope.
    return oauthJson(200, { access_token: issued.token, token_type: 'bearer' });
  }

  // ---- /introspect --------------------------------------------------------------------------------

  /**
   * Like the real service: the token must be both in `Authorization: Bearer` (any value authenticates the
   * call, so a revoked token can still be introspected) and in the body `{token}` (JSON or form).
   * Header only: 400. Body only: 401.
   */
  async function introspect(req) {
    const { fields } = await readOAuthFields(req);
    if (!bearerToken(req)) {
      throw oauthError(401, 'invalid_token', 'Send the token in the Authorization: Bearer header (and in the body)', {
        'WWW-Authenticate': 'Bearer realm="partner-payroll-sandbox"',
      });
    }
    const token = fields && typeof fields.token === 'string' && fields.token ? fields.token : null;
    if (!token) throw oauthError(400, 'invalid_request', 'Send {"token": "..."} in the body (and in the Authorization header)');
    const record = tokens.find(token);
    if (!record) return oauthJson(200, { active: false });
    return oauthJson(200, {
      active: true,
      scope: record.scopes.join(' '),
      client_id: record.clientId,
      company_id: record.companyId,
      token_type: 'bearer',
    });
  }

  // ---- routing ------------------------------------------------------------------------------------

  const ENDPOINTS = {
    '/authorize': { GET: (req, url) => showConsent(url), POST: (req) => decideConsent(req) },
    '/token': { POST: exchangeCode },
    '/introspect': { POST: introspect },
  };

  async function handle(req, url, subPath) {
    const endpoint = ENDPOINTS[subPath];
    if (!endpoint) throw oauthError(404, 'not_found', `No authorization-server endpoint at ${url.pathname}`);
    const handler = endpoint[req.method === 'HEAD' ? 'GET' : req.method];
    if (!handler) {
      throw oauthError(405, 'invalid_request', `Use ${Object.keys(endpoint).join(' or ')} on ${url.pathname}`, { Allow: Object.keys(endpoint).join(', ') });
    }
    try {
      return await handler(req, url);
    } catch (error) {
      if (error instanceof InputError) throw oauthError(400, 'invalid_request', error.message);
      throw error;
    }
  }

  return { handle, reset: () => codes.clear() };
}

module.exports = { createAuthServer };
