'use strict';
// The command line: startup information, fixed tokens from a file, size knobs, clean stop on signals.

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const CLI = path.join(__dirname, '..', 'cli.js');

/** Starts the CLI and resolves once it printed everything up to `until`. */
function startCli(args, { env = {}, until = /Stop with Ctrl\+C\.\n|\n$/ } = {}) {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const ready = new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (until.test(stdout)) resolve(stdout);
    });
    exited.then(() => reject(new Error(`CLI exited early: ${stderr}`)));
  });
  ready.catch(() => {}); // callers that only await `exited` must not see an unhandled rejection
  return { child, ready, exited };
}

let tokensFile;
beforeAll(() => {
  tokensFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-cli-')), 'tokens.json');
  fs.writeFileSync(tokensFile, JSON.stringify([
    { token: 'demo-token-fr1001', companyId: 'FR1001', scopes: ['accounting:read'] },
    { token: 'demo-key-gb3001', companyId: 'GB3001', scopes: 'pension:read', kind: 'apiKey' },
  ]));
});

test('--json prints the addresses, the default client and a token per company; fixed tokens work; SIGTERM stops cleanly', async () => {
  const cli = startCli(['--port', '0', '--json', '--tokens-file', tokensFile, '--accounting-lines', '40', '--payment-file-bytes=5000', '--listed-documents', '6']);
  const info = JSON.parse(await cli.ready);
  expect(info.apiBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
  expect(info.authServerUrl).toBe(info.apiBaseUrl.replace('/api/v1', '/oauth'));
  expect(info.controlUrl).toBe(info.apiBaseUrl.replace('/api/v1', '/_sandbox'));
  expect(info.storageUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(info.storageUrl).not.toBe(info.apiBaseUrl.replace('/api/v1', ''));
  expect(info.defaultClient).toEqual({
    clientId: 'n8n-local',
    clientSecret: 'sandbox-secret-n8n-local',
    redirectUris: ['http://127.0.0.1:5678/rest/oauth2-credential/callback', 'http://localhost:5678/rest/oauth2-credential/callback'],
    allowedScopes: ['payment-files:read', 'accounting:read', 'contracts:payslips:read', 'health-insurance:read', 'pension:read', 'contracts:read'],
  });
  expect(info.tokens.map((entry) => entry.companyId)).toEqual(['FR1001', 'FR1002', 'ES2001', 'GB3001']);
  expect(info.tokens[0]).toMatchObject({ token: 'demo-token-fr1001', scopes: ['accounting:read'] });
  for (const entry of info.tokens.slice(1)) expect(entry.scopes).toHaveLength(5);

  const get = (p, t) => fetch(`${info.apiBaseUrl}${p}`, { headers: { Authorization: `Bearer ${t}` } });
  const entries = await (await get('/companies/FR1001/accounting-v2?date=202607', 'demo-token-fr1001')).json();
  expect(entries).toHaveLength(40);
  expect((await get('/companies/GB3001/auto-enrolment-documents', 'demo-key-gb3001')).status).toBe(200);
  const gb = info.tokens.find((entry) => entry.companyId === 'GB3001').token;
  const file = await get('/companies/GB3001/payment-files?date=202607', gb);
  expect((await file.arrayBuffer()).byteLength).toBe(5000);
  expect((await (await get('/companies/GB3001/income-taxes-documents', gb)).json()).documents).toHaveLength(6);

  cli.child.kill('SIGTERM');
  const { code } = await cli.exited;
  expect(code).toBe(0);
  await expect(fetch(info.apiBaseUrl)).rejects.toThrow();
  await expect(fetch(info.storageUrl)).rejects.toThrow();
});

test('text output (port from PARTNER_PAYROLL_SANDBOX_PORT) names every address, the client secret and the tokens; SIGINT stops', async () => {
  const cli = startCli([], { env: { PARTNER_PAYROLL_SANDBOX_PORT: '0' } });
  const text = await cli.ready;
  expect(text).toMatch(/API base URL: +http:\/\/127\.0\.0\.1:\d+\/api\/v1/);
  expect(text).toMatch(/Authorization server: +http:\/\/127\.0\.0\.1:\d+\/oauth/);
  expect(text).toMatch(/Control endpoints: +http:\/\/127\.0\.0\.1:\d+\/_sandbox/);
  expect(text).toMatch(/Signed storage: +http:\/\/127\.0\.0\.1:\d+ /);
  expect(text).toContain('sandbox-secret-n8n-local');
  expect(text).toContain('http://localhost:5678/rest/oauth2-credential/callback');
  expect(text.match(/sbx_[A-Za-z0-9_-]{20,}/g)).toHaveLength(4);
  cli.child.kill('SIGINT');
  expect((await cli.exited).code).toBe(0);
});

test('--generated-companies N: N companies after the seeded ones; the printed tokens stay those of the seeded four', async () => {
  const cli = startCli(['--port', '0', '--json', '--generated-companies', '5']);
  const info = JSON.parse(await cli.ready);
  try {
    expect(info.generatedCompanies).toBe(5);
    expect(info.tokens.map((entry) => entry.companyId)).toEqual(['FR1001', 'FR1002', 'ES2001', 'GB3001']);
    const seed = await (await fetch(`${info.controlUrl}/seed`)).json();
    expect(seed.companies.map((company) => company.id)).toEqual(['FR1001', 'FR1002', 'ES2001', 'GB3001', 'FR5001', 'ES6001', 'GB7001', 'FR5002', 'ES6002']);
  } finally {
    cli.child.kill('SIGTERM');
    await cli.exited;
  }
});

test('--help exits 0; an unknown option or a bad number exits 2 with the usage', async () => {
  const help = startCli(['--help'], { until: /Usage/ });
  expect((await help.exited).code).toBe(0);
  for (const args of [['--bogus'], ['--port', 'abc'], ['--listed-documents', '-1'], ['--generated-companies', '3000']]) {
    const bad = startCli(args, { until: /never/ });
    const result = await bad.exited;
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage:');
  }
}, 20000); // five Node.js processes one after the other: over 5 s on a loaded 2-core machine

test('--state-file: the printed tokens and a registered webhook endpoint are the same after a restart', async () => {
  const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-cli-state-')), 'state.json');
  const args = ['--port', '0', '--json', '--tokens-file', tokensFile, '--state-file', stateFile];
  const first = startCli(args);
  const before = JSON.parse(await first.ready);
  await fetch(`${before.controlUrl}/webhooks`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ url: 'http://127.0.0.1:9/hook' }) });
  first.child.kill('SIGTERM');
  expect((await first.exited).code).toBe(0);

  const second = startCli(args);
  const after = JSON.parse(await second.ready);
  try {
    expect(after.tokens).toEqual(before.tokens);
    const es = after.tokens.find((entry) => entry.companyId === 'ES2001').token;
    expect((await fetch(`${after.apiBaseUrl}/companies/ES2001`, { headers: { Authorization: `Bearer ${es}` } })).status).toBe(200);
    const endpoints = await (await fetch(`${after.controlUrl}/webhooks`)).json();
    expect(endpoints.map((endpoint) => endpoint.url)).toEqual(['http://127.0.0.1:9/hook']);
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
}, 20000);
