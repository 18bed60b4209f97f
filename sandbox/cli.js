#!/usr/bin/env node
'use strict';
// Command line: starts the sandbox and prints where everything is, the default client and a ready-to-use
// token per seeded company. `node sandbox/cli.js --help` for the options.

const fs = require('node:fs');
const crypto = require('node:crypto');
const { startSandbox } = require('./server');
const { createStateFile } = require('./state-file');
const { loadClients } = require('./clients');
const { COMPANIES } = require('./seed');
const { API_SCOPES, parseScopes } = require('./scopes');

const USAGE = `Usage: node sandbox/cli.js [options]
  --port N                 port (default 4010, or env PARTNER_PAYROLL_SANDBOX_PORT; 0 = any free port)
  --host H                 interface to listen on (default 127.0.0.1)
  --storage-port N         port of the signed-storage origin of redirect faults (default 0 = any free port)
  --accounting-lines N     exact number of lines of every accounting export (CSV and v2)
  --payment-file-bytes N   minimum size of every payment file (padded deterministically)
  --listed-documents N     exact number of documents of GB3001's income-tax listing (each a real PDF)
  --generated-companies N  add N generated companies after the four seeded ones (FR5001, ES6001, GB7001, FR5002...)
  --tokens-file PATH       JSON [{"token","companyId","scopes":[...],"clientId"?,"kind"?}] of fixed tokens
  --state-file PATH        keep issued tokens and registered webhook endpoints in PATH across restarts
  --json                   print the startup information as one JSON line
  --help                   this text`;

const VALUE_OPTIONS = { '--port': 'port', '--host': 'host', '--storage-port': 'storagePort', '--accounting-lines': 'accountingLines', '--payment-file-bytes': 'paymentFileBytes', '--listed-documents': 'listedDocuments', '--generated-companies': 'generatedCompanies', '--tokens-file': 'tokensFile', '--state-file': 'stateFile' };
const INTEGER_OPTIONS = ['port', 'storagePort', 'accountingLines', 'paymentFileBytes', 'listedDocuments', 'generatedCompanies'];

function fail(message) {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv, env) {
  const args = { port: env.PARTNER_PAYROLL_SANDBOX_PORT, json: false };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inlineValue] = argv[i].split(/=(.*)/s);
    if (flag === '--help' || flag === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else if (flag === '--json') {
      args.json = true;
    } else if (VALUE_OPTIONS[flag]) {
      const value = inlineValue !== undefined ? inlineValue : argv[(i += 1)];
      if (value === undefined) fail(`${flag} needs a value`);
      args[VALUE_OPTIONS[flag]] = value;
    } else {
      fail(`Unknown option ${argv[i]}`);
    }
  }
  for (const name of INTEGER_OPTIONS) {
    if (args[name] === undefined || args[name] === '') {
      delete args[name];
    } else if (!/^\d+$/.test(String(args[name]))) {
      fail(`${name} must be a whole number, got "${args[name]}"`);
    } else {
      args[name] = Number(args[name]);
    }
  }
  return args;
}

function readTokensFile(file) {
  let tokens;
  try {
    tokens = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    fail(`Cannot read tokens file ${file}: ${error.message}`);
  }
  if (!Array.isArray(tokens)) fail(`Tokens file ${file} must hold a JSON array`);
  return tokens;
}

const isDefaultClientToken = (token, defaultClientId) =>
  (token.kind || 'oauth') === 'oauth' && (token.clientId || defaultClientId) === defaultClientId;

/**
 * Tokens of the tokens file; then, for every other company, its default-client token saved in the state
 * file (so the printed token stays the same across restarts), else a generated one (all five scopes).
 */
function startupTokens(fileTokens, savedTokens, defaultClientId) {
  const coveredBy = (tokens) => new Set(tokens
    .filter((token) => isDefaultClientToken(token, defaultClientId))
    .map((token) => token.companyId));
  const fromFile = coveredBy(fileTokens);
  const kept = savedTokens.filter((token) => isDefaultClientToken(token, defaultClientId) && !fromFile.has(token.companyId)
    && COMPANIES.some((company) => company.id === token.companyId))
    .map(({ token, companyId, scopes, clientId }) => ({ token, companyId, scopes, clientId }));
  const covered = coveredBy([...fileTokens, ...kept]);
  const generated = COMPANIES.filter((company) => !covered.has(company.id)).map((company) => ({
    token: `sbx_${crypto.randomBytes(24).toString('base64url')}`,
    companyId: company.id,
    scopes: [...API_SCOPES],
    clientId: defaultClientId,
  }));
  return [...fileTokens, ...kept, ...generated];
}

function describe(sandbox, defaultClient, tokens) {
  const companyTokens = COMPANIES.map((company) => {
    const token = tokens.find((candidate) => candidate.companyId === company.id && isDefaultClientToken(candidate, defaultClient.clientId));
    return { companyId: company.id, name: company.name, country: company.country, token: token.token, scopes: parseScopes(token.scopes) };
  });
  return {
    apiBaseUrl: sandbox.apiBaseUrl,
    authServerUrl: sandbox.authServerUrl,
    controlUrl: `${sandbox.url}/_sandbox`,
    storageUrl: sandbox.storageUrl,
    defaultClient: {
      clientId: defaultClient.clientId,
      clientSecret: defaultClient.clientSecret,
      redirectUris: defaultClient.redirectUris,
      allowedScopes: defaultClient.allowedScopes,
    },
    tokens: companyTokens,
    generatedCompanies: sandbox.seed.companyIds.length - COMPANIES.length,
  };
}

function printText(info) {
  const lines = [
    'Partner Payroll sandbox is running',
    `  API base URL:          ${info.apiBaseUrl}`,
    `  Authorization server:  ${info.authServerUrl}  (/authorize, /token, /introspect)`,
    `  Control endpoints:     ${info.controlUrl}`,
    `  Signed storage:        ${info.storageUrl}  (second origin of redirect faults with to: "other")`,
    '',
    'Default client',
    `  client_id:      ${info.defaultClient.clientId}`,
    `  client_secret:  ${info.defaultClient.clientSecret}`,
    `  redirect URIs:  ${info.defaultClient.redirectUris.join('\n                  ')}`,
    `  allowed scopes: ${info.defaultClient.allowedScopes.join(' ')}`,
    '',
    `Ready-to-use tokens (client ${info.defaultClient.clientId})`,
    ...info.tokens.map((entry) => `  ${entry.companyId}  ${entry.name} (${entry.country})\n          ${entry.token}\n          scopes: ${entry.scopes.join(' ')}`),
    '',
    ...(info.generatedCompanies > 0
      ? [`Generated companies: ${info.generatedCompanies} after the seeded ones, ids in turn FR5001, ES6001, GB7001, FR5002, ...`,
        `  tokens for many companies at once: POST ${info.controlUrl}/tokens with an array`, '']
      : []),
    'Stop with Ctrl+C.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main() {
  const args = parseArgs(process.argv.slice(2), process.env);
  const clients = loadClients();
  const defaultClient = clients.get(clients.defaultClientId);
  let savedTokens = [];
  try {
    if (args.stateFile) savedTokens = createStateFile(args.stateFile).load().tokens;
  } catch (error) {
    fail(error.message);
  }
  const tokens = startupTokens(args.tokensFile ? readTokensFile(args.tokensFile) : [], savedTokens, defaultClient.clientId);
  let sandbox = null;
  // Installed before anything is printed: whoever reads the banner may signal right away.
  const stop = (signal) => {
    process.stderr.write(`\n${signal} received, stopping the sandbox\n`);
    (sandbox ? sandbox.close() : Promise.resolve()).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    sandbox = await startSandbox({
      port: args.port === undefined ? 4010 : args.port,
      host: args.host,
      storagePort: args.storagePort,
      accountingLines: args.accountingLines,
      paymentFileBytes: args.paymentFileBytes,
      listedDocuments: args.listedDocuments,
      generatedCompanies: args.generatedCompanies,
      initialTokens: tokens,
      stateFile: args.stateFile,
    });
  } catch (error) {
    fail(`Cannot start the sandbox: ${error.message}`);
  }
  const info = describe(sandbox, defaultClient, tokens);
  if (args.json) process.stdout.write(`${JSON.stringify(info)}\n`);
  else printText(info);
}

main();
