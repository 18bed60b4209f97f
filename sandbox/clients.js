'use strict';
// Registered OAuth clients (partner applications): loaded from clients.json or given in code, checked once.

const fs = require('node:fs');
const path = require('node:path');
const { InputError } = require('./errors');

const DEFAULT_CLIENTS_FILE = path.join(__dirname, 'clients.json');
const DEFAULT_CLIENT_ID = 'n8n-local';

function isStringArray(value) {
  return Array.isArray(value) && value.every((item) => typeof item === 'string' && item !== '');
}

function validateClient(client, index) {
  const where = `client #${index + 1}`;
  if (!client || typeof client !== 'object') throw new Error(`${where}: must be an object`);
  if (typeof client.clientId !== 'string' || !client.clientId) throw new Error(`${where}: clientId must be a non-empty string`);
  if (typeof client.clientSecret !== 'string' || !client.clientSecret) throw new Error(`${where}: clientSecret must be a non-empty string`);
  if (!isStringArray(client.redirectUris) || client.redirectUris.length === 0) throw new Error(`${where}: redirectUris must list at least one URI`);
  if (!isStringArray(client.allowedScopes)) throw new Error(`${where}: allowedScopes must be an array of strings`);
  return Object.freeze({
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    redirectUris: Object.freeze([...client.redirectUris]),
    allowedScopes: Object.freeze([...client.allowedScopes]),
    partner: client.partner !== false,
  });
}

/** Returns a frozen registry `{list, get(clientId), defaultClientId}`. */
function loadClients({ clients, clientsFile } = {}) {
  const raw = clients || JSON.parse(fs.readFileSync(clientsFile || DEFAULT_CLIENTS_FILE, 'utf8'));
  if (!Array.isArray(raw) || raw.length === 0) throw new Error('clients: expected a non-empty array');
  const list = raw.map(validateClient);
  const byId = new Map();
  for (const client of list) {
    if (byId.has(client.clientId)) throw new Error(`clients: duplicate clientId "${client.clientId}"`);
    byId.set(client.clientId, client);
  }
  // Redirect addresses registered while running, as a partner does in the provider's portal (a connect
  // link's address is known only once its n8n workflow exists).
  const addedRedirectUris = new Map();

  /** Registers `redirectUri` for the client; returns the client's redirect addresses. */
  function addRedirectUri(clientId, redirectUri) {
    const client = byId.get(clientId);
    if (!client) throw new InputError(`No application is registered with clientId "${clientId}"`);
    let parsed;
    try {
      parsed = new URL(String(redirectUri));
    } catch {
      throw new InputError('redirectUri must be an absolute http or https URL');
    }
    if (!['http:', 'https:'].includes(parsed.protocol) || parsed.hash) throw new InputError('redirectUri must be an absolute http or https URL without a fragment');
    const added = addedRedirectUris.get(clientId) || new Set();
    added.add(String(redirectUri));
    addedRedirectUris.set(clientId, added);
    return redirectUrisOf(clientId);
  }

  function redirectUrisOf(clientId) {
    const client = byId.get(clientId);
    return client ? [...client.redirectUris, ...(addedRedirectUris.get(clientId) || [])] : [];
  }

  return Object.freeze({
    list: Object.freeze(list),
    get: (clientId) => byId.get(clientId) || null,
    addRedirectUri,
    /** Whether the client registered this exact redirect address (at start or since). */
    allowsRedirect: (clientId, redirectUri) => redirectUrisOf(clientId).includes(redirectUri),
    // n8n-local when registered, otherwise the first client.
    defaultClientId: byId.has(DEFAULT_CLIENT_ID) ? DEFAULT_CLIENT_ID : list[0].clientId,
  });
}

module.exports = { loadClients, DEFAULT_CLIENT_ID };
