'use strict';
// Scope names of the spec, and the one parser for scope lists wherever they come from.

/** The five scopes named in the spec's Endpoints table. */
const API_SCOPES = Object.freeze([
  'payment-files:read',
  'accounting:read',
  'contracts:payslips:read',
  'health-insurance:read',
  'pension:read',
]);

/** Also accepted: `contracts:read` appears in a sample 403 of the spec. */
const KNOWN_SCOPES = Object.freeze([...API_SCOPES, 'contracts:read']);

/**
 * Scope list from a string or an array. Spaces are the documented separator; `+` (already a space once
 * the query is decoded) and commas (an older version of the documentation) are accepted too.
 * Duplicates are dropped, order kept.
 */
function parseScopes(value) {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : String(value).split(/[\s,+]+/);
  const scopes = [];
  for (const item of items) {
    const scope = String(item).trim();
    if (scope && !scopes.includes(scope)) scopes.push(scope);
  }
  return scopes;
}

module.exports = { API_SCOPES, KNOWN_SCOPES, parseScopes };
