'use strict';
// Entry point: startSandbox(options) serves, on one port, the API under /api/v1, the authorization server
// under /oauth and the control endpoints under /_sandbox, and on a second port the signed-storage origin
// (storage.js) that redirect faults can send clients to. This file wires the parts together and owns what
// happens around every request: fault injection and the request log.

const http = require('node:http');
const { setTimeout: sleep } = require('node:timers/promises');
const { ReplyError, InputError, apiError } = require('./errors');
const { jsonReply, writeReply, writeTruncatedReply, readRequestBody, bearerToken, BodyTooLargeError } = require('./http-util');
const { loadClients } = require('./clients');
const { companyDirectory, checkedGeneratedCompanies } = require('./seed');
const { createTokenStore, issuedTokenView } = require('./tokens');
const { createStateFile } = require('./state-file');
const { createCompanyState } = require('./state');
const {
  createFaultList,
  statusFaultReply,
  malformedReply,
  signInPageReply,
  redirectFaultReply,
  sameOriginLocation,
  isSignInPage,
  preventsOperation,
  delayBefore,
} = require('./faults');
const { createRequestLog } = require('./request-log');
const { createRateLimiter } = require('./rate-limit');
const { createAuthServer } = require('./auth-server');
const { createResourceServer } = require('./resource-server');
const { createControl } = require('./control');
const { createSeedView } = require('./seed-view');
const { createWebhooks } = require('./webhooks');
const { createSignedStorage } = require('./storage');

const API_PREFIX = '/api/v1';
const AUTH_PREFIX = '/oauth';
const CONTROL_PREFIX = '/_sandbox';

/** A positive integer, or null for "natural size". */
function sizeKnob(name, value) {
  if (value === undefined || value === null) return null;
  if (!(Number.isInteger(value) && value > 0)) throw new InputError(`${name} must be a positive integer`);
  return value;
}

/** A whole number (0 allowed), or null for "as seeded". */
function countKnob(name, value) {
  if (value === undefined || value === null) return null;
  if (!(Number.isInteger(value) && value >= 0)) throw new InputError(`${name} must be a whole number (0 or more)`);
  return value;
}

/** The part of `path` under `prefix` ('' for the prefix itself), or null when outside it. */
function underPrefix(path, prefix) {
  if (path === prefix) return '';
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : null;
}

/** What a state file keeps of a token: the record without what the client registry gives. */
const savedToken = ({ token, companyId, clientId, scopes, kind, createdAt }) => ({ token, companyId, clientId, scopes, kind, createdAt });

function originFor(host, port) {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

async function startSandbox(options = {}) {
  const {
    port = 4010,
    host = '127.0.0.1',
    clientsFile,
    clients: clientList,
    codeTtlMs = 600000,
    initialTokens = [],
    rateLimits,
    storagePort = 0,
    stateFile,
  } = options;
  const startKnobs = {
    accountingLines: sizeKnob('accountingLines', options.accountingLines),
    paymentFileBytes: sizeKnob('paymentFileBytes', options.paymentFileBytes),
    listedDocuments: countKnob('listedDocuments', options.listedDocuments),
    generatedCompanies: checkedGeneratedCompanies(options.generatedCompanies),
  };
  const knobs = { ...startKnobs };
  // The companies served: replaced on a reset that changes generatedCompanies.
  let companies = companyDirectory(knobs.generatedCompanies);
  const companyExists = (companyId) => companies.has(companyId);
  const clients = loadClients({ clients: clientList, clientsFile });
  const savedState = stateFile ? createStateFile(stateFile) : null;
  // Off while the start loads what was saved: one save once everything is in.
  let persisting = false;
  const persist = () => {
    if (persisting) savedState.save({ tokens: tokens.list().map(savedToken), webhookEndpoints: webhooks.list() });
  };
  const tokens = createTokenStore({ clients, companyExists, onChange: persist });
  const companyState = createCompanyState({ companyExists });
  const faults = createFaultList();
  const requestLog = createRequestLog();
  const rateLimiter = createRateLimiter(rateLimits);
  const webhooks = createWebhooks({}, { onChange: persist });
  const authServer = createAuthServer({ clients, companies: () => companies, tokens, codeTtlMs, basePath: AUTH_PREFIX });
  const resourceServer = createResourceServer({ tokens, companyState, rateLimiter, knobs });
  const seedView = createSeedView({ knobs, clients, companies: () => companies });
  // The signed-storage origin answers a signed request with what dispatch gives for the original one.
  const storage = createSignedStorage({ answer: (req, url) => replyFor(() => dispatch(req, url)) });

  function loadInitialTokens() {
    for (const token of initialTokens) tokens.issue(token);
  }

  /** Back to the seed state; knobs from the body, else those given at start. */
  function reset(body) {
    const given = body && typeof body === 'object' ? body : {};
    const value = (name) => (given[name] === undefined ? startKnobs[name] : given[name]);
    const next = {
      accountingLines: sizeKnob('accountingLines', value('accountingLines')),
      paymentFileBytes: sizeKnob('paymentFileBytes', value('paymentFileBytes')),
      listedDocuments: countKnob('listedDocuments', value('listedDocuments')),
      generatedCompanies: checkedGeneratedCompanies(value('generatedCompanies')),
    };
    const nextCompanies = companyDirectory(next.generatedCompanies);
    // Checked before anything changes: the initial tokens are loaded again after the reset.
    const orphan = initialTokens.find((token) => !nextCompanies.has(token && token.companyId));
    if (orphan) throw new InputError(`generatedCompanies: ${next.generatedCompanies} leaves out ${orphan.companyId}, which an initial token needs`);
    Object.assign(knobs, next);
    companies = nextCompanies;
    tokens.clear();
    authServer.reset();
    companyState.reset();
    faults.clear();
    requestLog.clear();
    rateLimiter.reset();
    webhooks.reset();
    storage.reset();
    loadInitialTokens();
    return { ...knobs };
  }

  const control = createControl({
    clients,
    tokens,
    companyState,
    faults,
    requestLog,
    rateLimiter,
    webhooks,
    seedView,
    storage,
    info: () => urls,
    reset,
  });

  if (savedState) restoreSavedState(savedState.load());
  // After the saved tokens, so that a given token wins over a saved one of the same company and client.
  loadInitialTokens();
  if (savedState) {
    persisting = true;
    persist();
  }

  /** A saved token whose company or client is no longer known is dropped, with a warning (never its value). */
  function restoreSavedState(saved) {
    for (const token of saved.tokens) {
      try {
        tokens.restore(token);
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        console.warn(`[sandbox] state file ${savedState.file}: a saved token of ${token.companyId} is dropped: ${error.message}`);
      }
    }
    webhooks.restore(saved.webhookEndpoints);
  }

  const shutdown = new AbortController();
  let urls = null;
  // Every TCP connection gets a number, so the request log shows whether clients keep connections alive.
  const connectionNumbers = new WeakMap();
  let connectionsOpened = 0;

  async function dispatch(req, url) {
    const path = url.pathname;
    const apiPath = underPrefix(path, API_PREFIX);
    if (apiPath !== null) return resourceServer.handle(req, url, apiPath);
    const authPath = underPrefix(path, AUTH_PREFIX);
    if (authPath !== null) return authServer.handle(req, url, authPath);
    if (path === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
      return jsonReply(200, { name: 'Partner Payroll sandbox', ...urls });
    }
    throw apiError(404, `Unknown path ${path}; the API is under ${API_PREFIX}, the authorization server under ${AUTH_PREFIX}`);
  }

  async function replyFor(work) {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ReplyError) return error.reply;
      console.error('[sandbox] unexpected error:', error);
      return apiError(500, error.message).reply;
    }
  }

  /**
   * A redirect fault: the operation does not run. `same`: this origin, same path and query plus
   * `redirected=<hop>`. `other`: a signed-storage URL standing for this very request (its body included,
   * read here), which the storage origin answers without a token.
   */
  async function redirectReply(fault, req, url) {
    if (fault.to === 'same') {
      req.resume();
      return redirectFaultReply(fault, sameOriginLocation(urls.url, url));
    }
    let body;
    try {
      body = await readRequestBody(req);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return apiError(413, error.message).reply;
      throw error;
    }
    return redirectFaultReply(fault, storage.sign({ method: req.method, headers: req.headers, url, body, status: fault.status }));
  }

  async function serve(req, res, url) {
    const controlPath = underPrefix(url.pathname, CONTROL_PREFIX);
    if (controlPath !== null) {
      writeReply(res, await replyFor(() => control.handle(req, url, controlPath)));
      return;
    }
    const fault = faults.take(req.method, url.pathname, url.searchParams);
    const connection = connectionNumbers.get(req.socket);
    // Looked up on arrival: the token may be revoked or replaced before the answer ends.
    const token = tokens.find(bearerToken(req));
    res.on('close', () => requestLog.record(req, url, { status: res.headersSent ? res.statusCode : null, fault: fault && fault.type, connection, token }));
    const faultReply = () => statusFaultReply(fault, rateLimiter.limitFor(req.method));
    if (fault && fault.type === 'redirect') {
      writeReply(res, await redirectReply(fault, req, url));
      return;
    }
    if (fault && preventsOperation(fault)) {
      req.resume();
      if (fault.type === 'reset') res.socket.destroy();
      else if (isSignInPage(fault)) writeReply(res, signInPageReply());
      else writeReply(res, faultReply());
      return;
    }
    const delay = () => sleep(fault.delayMs, undefined, { signal: shutdown.signal });
    if (fault && delayBefore(fault)) await delay();
    const result = await replyFor(() => dispatch(req, url));
    if (fault && fault.type === 'delay' && fault.afterEffect) await delay();
    if (fault && fault.type === 'truncate') writeTruncatedReply(res, result);
    else if (fault && fault.type === 'malformed') writeReply(res, malformedReply(result));
    else if (fault && fault.type === 'status') writeReply(res, faultReply());
    else if (fault && fault.type === 'reset') res.socket.destroy();
    else writeReply(res, result);
  }

  const server = http.createServer((req, res) => {
    let url;
    try {
      url = new URL(req.url, 'http://sandbox.invalid');
    } catch {
      writeReply(res, apiError(400, 'Malformed request target').reply);
      return;
    }
    serve(req, res, url).catch((error) => {
      if (error.name !== 'AbortError') console.error('[sandbox] request failed:', error);
      if (!res.headersSent) res.destroy();
    });
  });

  server.on('connection', (socket) => {
    connectionsOpened += 1;
    connectionNumbers.set(socket, connectionsOpened);
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  function closeMain() {
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  const actualPort = server.address().port;
  const origin = originFor(host, actualPort);
  let storageUrl;
  try {
    storageUrl = await storage.listen(storagePort, host, originFor);
  } catch (error) {
    await closeMain();
    throw error;
  }
  urls = {
    url: origin,
    apiBaseUrl: `${origin}${API_PREFIX}`,
    authServerUrl: `${origin}${AUTH_PREFIX}`,
    controlUrl: `${origin}${CONTROL_PREFIX}`,
    storageUrl,
  };

  let closing = null;
  function close() {
    if (!closing) {
      shutdown.abort();
      closing = Promise.all([closeMain(), storage.close()]).then(() => undefined);
    }
    return closing;
  }

  return {
    ...urls,
    port: actualPort,
    close,
    /** Issues a token without the OAuth dance; same one-token-per-company-and-client rule. */
    issueToken: ({ companyId, scopes, clientId, kind, token } = {}) => {
      const issued = tokens.issue({ companyId, scopes, clientId, kind, token });
      return { access_token: issued.token, token_type: 'bearer' };
    },
    /** Many tokens at once, all or none (same items as issueToken); `[{companyId, clientId, kind, access_token, token_type}]`. */
    issueTokens: (list) => tokens.issueMany(list).map(issuedTokenView),
    reset: (body) => {
      reset(body);
    },
    seed: seedView,
  };
}

module.exports = { startSandbox, API_PREFIX, AUTH_PREFIX, CONTROL_PREFIX };
