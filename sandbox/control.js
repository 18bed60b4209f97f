'use strict';
// Control endpoints under /_sandbox (JSON, no auth, never logged, never faulted): reset, payroll statuses,
// tokens, request log, faults, billing declarations, rate limits, webhooks, the signed-storage origin.

const { apiError, InputError } = require('./errors');
const { jsonReply, emptyReply, readRequestBody, BodyTooLargeError } = require('./http-util');
const { createRouter } = require('./router');
const { maskSecret, issuedTokenView } = require('./tokens');

/** JSON body whatever the Content-Type (so `curl -d '{...}'` works); empty body -> {}. */
async function readJson(req) {
  let raw;
  try {
    raw = await readRequestBody(req);
  } catch (error) {
    throw error instanceof BodyTooLargeError ? apiError(413, error.message) : error;
  }
  if (raw.length === 0) return {};
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw apiError(400, 'Control endpoints take a JSON body');
  }
}

function tokenView(record) {
  const { token, partner, ...rest } = record;
  return { token: maskSecret(token), ...rest };
}

/**
 * Switches a payroll status, or (an array) several at once, all or none, so that a partner's month-end can
 * complete many companies in the same instant; a month that becomes completed sends `payroll.run` to
 * registered webhooks.
 */
function switchPayrollStatus(companyState, webhooks, body) {
  const changes = Array.isArray(body) ? body : [body];
  const before = changes.map((change) => companyState.payrollStatus(change && change.companyId, change && change.month).status);
  const results = companyState.setPayrollStatuses(changes);
  results.forEach((result, index) => {
    if (result.status === 'completed' && before[index] !== 'completed') webhooks.payrollRun(result);
  });
  return Array.isArray(body) ? results : results[0];
}

function createControl({ clients, tokens, companyState, faults, requestLog, rateLimiter, webhooks, reset, seedView, storage, info }) {
  const ROUTES = [
    { method: 'GET', path: '/', handler: () => jsonReply(200, {
      ...info(),
      endpoints: ROUTES.map((route) => `${route.method} /_sandbox${route.path === '/' ? '' : route.path}`),
    }) },
    { method: 'GET', path: '/seed', handler: () => jsonReply(200, {
      companies: seedView.companies,
      months: seedView.months,
      documents: Object.fromEntries(seedView.companyIds.map((id) => [id, seedView.documents(id)])),
    }) },
    { method: 'POST', path: '/reset', handler: async (req) => jsonReply(200, { reset: true, ...reset(await readJson(req)) }) },
    { method: 'GET', path: '/payroll-status', handler: (req, url) => {
      const companyId = url.searchParams.get('companyId');
      const month = url.searchParams.get('month');
      return jsonReply(200, { companyId, month, ...companyState.payrollStatus(companyId, month) });
    } },
    { method: 'POST', path: '/payroll-status', handler: async (req) => jsonReply(200, switchPayrollStatus(companyState, webhooks, await readJson(req))) },
    { method: 'GET', path: '/tokens', handler: (req, url) => jsonReply(200, tokens.list(url.searchParams.get('companyId')).map(tokenView)) },
    { method: 'POST', path: '/tokens', handler: async (req) => {
      const body = await readJson(req);
      // An array issues many tokens at once (hundreds of companies of one partner), all or none.
      if (Array.isArray(body)) return jsonReply(201, tokens.issueMany(body).map(issuedTokenView));
      const issued = tokens.issue(body);
      return jsonReply(201, { access_token: issued.token, token_type: 'bearer' });
    } },
    { method: 'POST', path: '/tokens/revoke', handler: async (req) => {
      const { token, companyId, clientId } = await readJson(req);
      if (typeof token === 'string' && token) return jsonReply(200, { revoked: tokens.revokeToken(token) });
      if (companyId) return jsonReply(200, { revoked: tokens.revokeFor(companyId, clientId || seedView.defaultClientId) });
      throw new InputError('Send {token} or {companyId, clientId}');
    } },
    // The provider's portal: register a redirect address (a connect link's) for a client, default n8n-local.
    { method: 'POST', path: '/clients/redirect-uris', handler: async (req) => {
      const { clientId = clients.defaultClientId, redirectUri } = await readJson(req);
      return jsonReply(201, { clientId, redirectUris: clients.addRedirectUri(clientId, redirectUri) });
    } },
    { method: 'GET', path: '/requests', handler: () => jsonReply(200, requestLog.list()) },
    { method: 'DELETE', path: '/requests', handler: () => {
      requestLog.clear();
      return emptyReply(204);
    } },
    { method: 'GET', path: '/storage', handler: () => jsonReply(200, { url: storage.url, signedUrls: storage.signed() }) },
    { method: 'GET', path: '/storage/requests', handler: () => jsonReply(200, storage.requests()) },
    { method: 'DELETE', path: '/storage/requests', handler: () => {
      storage.clearRequests();
      return emptyReply(204);
    } },
    { method: 'GET', path: '/faults', handler: () => jsonReply(200, faults.list()) },
    { method: 'POST', path: '/faults', handler: async (req) => jsonReply(201, faults.add(await readJson(req))) },
    { method: 'DELETE', path: '/faults', handler: () => {
      faults.clear();
      return emptyReply(204);
    } },
    { method: 'GET', path: '/billing-declarations', handler: (req, url) => jsonReply(200, companyState.declarationsOf(url.searchParams.get('companyId'))) },
    { method: 'GET', path: '/rate-limits', handler: () => jsonReply(200, rateLimiter.current()) },
    { method: 'POST', path: '/rate-limits', handler: async (req) => jsonReply(200, rateLimiter.configure(await readJson(req))) },
    { method: 'GET', path: '/webhooks', handler: () => jsonReply(200, webhooks.list()) },
    { method: 'POST', path: '/webhooks', handler: async (req) => jsonReply(201, webhooks.register(await readJson(req))) },
    { method: 'DELETE', path: '/webhooks', handler: () => {
      webhooks.reset();
      return emptyReply(204);
    } },
    { method: 'GET', path: '/webhooks/deliveries', handler: () => jsonReply(200, webhooks.deliveries()) },
    { method: 'GET', path: '/webhooks/messages', handler: () => jsonReply(200, webhooks.messages()) },
    { method: 'GET', path: '/webhooks/settings', handler: () => jsonReply(200, { ...webhooks.settings(), pendingRetries: webhooks.pending() }) },
    { method: 'POST', path: '/webhooks/settings', handler: async (req) => jsonReply(200, webhooks.configure(await readJson(req))) },
    { method: 'POST', path: '/webhooks/rotate', handler: async (req) => {
      const { endpointId, secret } = await readJson(req);
      return jsonReply(200, webhooks.rotate(endpointId, { secret }));
    } },
    { method: 'POST', path: '/webhooks/send', handler: async (req) => jsonReply(200, await webhooks.send(await readJson(req))) },
    { method: 'POST', path: '/webhooks/resend', handler: async (req) => {
      const { messageId, endpointId } = await readJson(req);
      return jsonReply(200, await webhooks.resend(messageId, { endpointId }));
    } },
    { method: 'POST', path: '/webhooks/integration', handler: async (req) => jsonReply(200, await webhooks.integration(await readJson(req))) },
    { method: 'POST', path: '/webhooks/payroll-run', handler: async (req) => {
      const { companyId, month, effectiveDate, ...rest } = await readJson(req);
      const current = companyState.payrollStatus(companyId, month);
      if (current.status !== 'completed') throw new InputError(`The payroll of ${month} is not completed for ${companyId}`, 409);
      return jsonReply(200, await webhooks.payrollRun({ ...rest, companyId, month, executionEndDate: effectiveDate || current.executionEndDate }));
    } },
  ];
  const findRoute = createRouter(ROUTES);

  async function handle(req, url, subPath) {
    const found = findRoute(req.method, subPath || '/');
    if (!found) throw apiError(404, `No control endpoint at ${req.method} ${url.pathname}`);
    if (found.allowedMethods) throw apiError(405, `Use ${found.allowedMethods.join(' or ')}`, { headers: { Allow: found.allowedMethods.join(', ') } });
    try {
      return await found.route.handler(req, url);
    } catch (error) {
      if (error instanceof InputError) throw apiError(error.status, error.message);
      throw error;
    }
  }

  return { handle };
}

module.exports = { createControl };
