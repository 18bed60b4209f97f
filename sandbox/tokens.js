'use strict';
// Live access tokens. Partner OAuth tokens follow the spec's rule "a company has at most one token per
// client_id; creating a new one deletes the existing one". Company API keys (real-service fact: created by
// a company administrator, fixed scopes, same bearer usage) belong to no client and never replace anything.

const crypto = require('node:crypto');
const { InputError } = require('./errors');
const { KNOWN_SCOPES, parseScopes } = require('./scopes');

const TOKEN_KINDS = ['oauth', 'apiKey'];

function generateToken(kind) {
  return `${kind === 'apiKey' ? 'sbx_key_' : 'sbx_'}${crypto.randomBytes(24).toString('base64url')}`;
}

/** '…' plus the last 4 characters; short values are hidden completely. */
function maskSecret(value) {
  const text = String(value);
  return text.length >= 12 ? `…${text.slice(-4)}` : '…';
}

/** A token as a bulk issue answers it: whose it is, and the token itself. */
function issuedTokenView({ companyId, clientId, kind, token }) {
  return { companyId, clientId, kind, access_token: token, token_type: 'bearer' };
}

/** `onChange()` is called after every change (a state file saves the tokens then). */
function createTokenStore({ clients, companyExists, onChange = () => {} }) {
  const byToken = new Map();

  function checkedScopes(scopes, allowed, owner) {
    const list = parseScopes(scopes);
    const refused = list.filter((scope) => !allowed.includes(scope));
    if (refused.length > 0) throw new InputError(`Scope(s) not allowed for ${owner}: ${refused.join(', ')}`);
    return Object.freeze(list);
  }

  /** Creates a token (or registers the given `token` value). Returns the stored record. */
  function issue(fields) {
    const record = put(prepare(fields, new Date().toISOString()));
    onChange();
    return record;
  }

  /**
   * Several tokens at once, all or none: every item is checked before any is stored (an OAuth token
   * replaces the company's previous one, so a refused batch must not have replaced half of them), and a
   * state file is written once. Returns the stored records, in order.
   */
  function issueMany(list) {
    if (!Array.isArray(list)) throw new InputError('Send an array of tokens');
    const createdAt = new Date().toISOString();
    const prepared = list.map((fields, index) => {
      try {
        return prepare(fields, createdAt);
      } catch (error) {
        if (error instanceof InputError) error.message = `tokens[${index}]: ${error.message}`;
        throw error;
      }
    });
    const oauthOwners = new Set();
    prepared.forEach((record, index) => {
      const owner = `${record.companyId}|${record.clientId}`;
      if (record.kind !== 'oauth') return;
      // The second would delete the first one at once (one token per company and client).
      if (oauthOwners.has(owner)) throw new InputError(`tokens[${index}]: a second OAuth token for ${record.companyId} and client ${record.clientId}`);
      oauthOwners.add(owner);
    });
    const records = prepared.map(put);
    if (records.length > 0) onChange();
    return records;
  }

  /** A token saved by a previous run, under the same rules, with its creation date. */
  function restore(saved) {
    return put(prepare(saved, saved && typeof saved.createdAt === 'string' ? saved.createdAt : new Date().toISOString()));
  }

  /** The record a token would be, checked; nothing is stored yet. */
  function prepare({ token, companyId, scopes, clientId, kind = 'oauth' } = {}, createdAt) {
    if (!TOKEN_KINDS.includes(kind)) throw new InputError(`kind must be one of ${TOKEN_KINDS.join(', ')}`);
    if (!companyExists(companyId)) throw new InputError(`Unknown companyId "${companyId}"`);
    if (token !== undefined && (typeof token !== 'string' || !/^[\x21-\x7e]+$/.test(token))) {
      throw new InputError('token must be a non-empty string of printable ASCII characters without spaces');
    }
    let record;
    if (kind === 'oauth') {
      const client = clients.get(clientId || clients.defaultClientId);
      if (!client) throw new InputError(`Unknown clientId "${clientId}"`);
      const grantedScopes = checkedScopes(scopes, client.allowedScopes, `client ${client.clientId}`);
      record = { companyId, clientId: client.clientId, scopes: grantedScopes, kind, partner: client.partner };
    } else {
      const grantedScopes = checkedScopes(scopes, KNOWN_SCOPES, 'company API keys');
      record = { companyId, clientId: null, scopes: grantedScopes, kind, partner: false };
    }
    record.token = token || generateToken(kind);
    record.createdAt = createdAt;
    return Object.freeze(record);
  }

  /** Stores a prepared record; an OAuth token deletes the company's previous one for the same client. */
  function put(record) {
    if (record.kind === 'oauth') deleteOAuthTokens(record.companyId, record.clientId);
    byToken.set(record.token, record);
    return record;
  }

  function find(token) {
    return (token && byToken.get(token)) || null;
  }

  function revokeToken(token) {
    if (!byToken.delete(token)) return 0;
    onChange();
    return 1;
  }

  /** Revokes the OAuth token(s) of a company for a client. */
  function revokeFor(companyId, clientId) {
    const count = deleteOAuthTokens(companyId, clientId);
    if (count > 0) onChange();
    return count;
  }

  function deleteOAuthTokens(companyId, clientId) {
    let count = 0;
    for (const record of byToken.values()) {
      if (record.kind === 'oauth' && record.companyId === companyId && record.clientId === clientId) {
        byToken.delete(record.token);
        count += 1;
      }
    }
    return count;
  }

  function list(companyId) {
    return [...byToken.values()].filter((record) => !companyId || record.companyId === companyId);
  }

  function clear() {
    byToken.clear();
    onChange();
  }

  return { issue, issueMany, restore, find, revokeToken, revokeFor, list, clear };
}

module.exports = { createTokenStore, maskSecret, issuedTokenView, TOKEN_KINDS };
