'use strict';
// Partners at scale: generated companies after the seeded ones (the generatedCompanies knob), tokens in
// bulk, the token's owner in the request log, the consent page with hundreds of companies.

const http = require('node:http');
const crypto = require('node:crypto');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const {
  ALL_API_SCOPES, startTestSandbox, api, control, authorizeUrl, defaultAuthorizeParams, obtainCode, tokenRequest, exchangeFields,
} = require('./helpers');

const SEEDED_IDS = ['FR1001', 'FR1002', 'ES2001', 'GB3001'];
const GENERATED = 296; // 300 companies in all

let sandbox;
let plain;
beforeAll(async () => {
  [sandbox, plain] = await Promise.all([startTestSandbox({ generatedCompanies: GENERATED }), startTestSandbox()]);
});
afterAll(() => Promise.all([sandbox.close(), plain.close()]));
beforeEach(() => {
  sandbox.reset();
  plain.reset();
});

/** One token per company, all API scopes, default client, through the bulk control endpoint. */
async function tokensFor(companyIds) {
  const issued = await control(sandbox, '/tokens', { method: 'POST', body: companyIds.map((companyId) => ({ companyId, scopes: ALL_API_SCOPES })) });
  expect(issued.status).toBe(201);
  return Object.fromEntries(issued.body.map((entry) => [entry.companyId, entry.access_token]));
}

/** Luhn check, written apart from the sandbox's (SIREN and SIRET are Luhn-valid). */
function luhnValid(digits) {
  const sum = [...digits].reverse().reduce((total, char, i) => {
    const doubled = i % 2 === 1 ? Number(char) * 2 : Number(char);
    return total + (doubled > 9 ? doubled - 9 : doubled);
  }, 0);
  return sum % 10 === 0;
}

describe('the generatedCompanies knob', () => {
  test('default: only the four seeded companies; a generated id is unknown everywhere', async () => {
    expect(plain.seed.companyIds).toEqual(SEEDED_IDS);
    expect(() => plain.issueToken({ companyId: 'FR5001', scopes: [] })).toThrow(/companyId/);
    expect((await control(plain, '/payroll-status', { method: 'POST', body: { companyId: 'FR5001', month: '202611', status: 'completed' } })).status).toBe(404);
    expect((await control(plain, '/payroll-status?companyId=FR5001&month=202610')).body).toMatchObject({ status: 'not_completed', executionEndDate: null });
    expect((await control(plain, '/webhooks/payroll-run', { method: 'POST', body: { companyId: 'FR5001', month: '202610' } })).status).toBe(409);
    const html = await (await fetch(authorizeUrl(plain, defaultAuthorizeParams({ company_hint: 'FR5001' })))).text();
    expect(html).not.toContain('FR5001');
  });

  test('296 generated companies after the seeded ones, FR, ES and GB in turn, with stable ids', () => {
    const ids = sandbox.seed.companyIds;
    expect(ids).toHaveLength(300);
    expect(new Set(ids).size).toBe(300);
    expect(ids.slice(0, 11)).toEqual([...SEEDED_IDS, 'FR5001', 'ES6001', 'GB7001', 'FR5002', 'ES6002', 'GB7002', 'FR5003']);
    expect(ids.slice(-3)).toEqual(['GB7098', 'FR5099', 'ES6099']);
    const countries = sandbox.seed.companies.slice(4).map((company) => company.country);
    expect(countries.filter((country) => country === 'FR')).toHaveLength(99);
    expect(countries.filter((country) => country === 'GB')).toHaveLength(98);
    for (const company of sandbox.seed.companies.slice(4)) expect(company.id.slice(0, 2)).toBe(company.country);
  });

  test('the seeded companies stay exactly as they are', () => {
    expect(sandbox.seed.companies.slice(0, 4)).toEqual(plain.seed.companies);
    for (const id of SEEDED_IDS) expect(sandbox.seed.documents(id)).toEqual(plain.seed.documents(id));
  });

  test('every generated company has a full record, valid identification numbers and a few contracts', () => {
    const contractIds = new Set();
    for (const company of sandbox.seed.companies.slice(4)) {
      expect(company).toEqual({
        id: company.id,
        name: expect.stringMatching(/\S/),
        country: company.country,
        identificationNumber: expect.any(String),
        address: expect.stringMatching(/^\d+ \S/),
        city: expect.stringMatching(/\S/),
        postalCode: expect.stringMatching(/\S/),
        nbActiveContracts: company.contracts.filter((contract) => contract.active).length,
        ...(company.country === 'FR' ? { french: expect.any(Object) } : {}),
        contracts: expect.any(Array),
      });
      expect(company.nbActiveContracts).toBeGreaterThanOrEqual(2);
      expect(company.nbActiveContracts).toBeLessThanOrEqual(4);
      for (const contract of company.contracts) {
        expect(contractIds.has(contract.contractId)).toBe(false);
        contractIds.add(contract.contractId);
      }
      if (company.country === 'FR') {
        expect(company.identificationNumber).toMatch(/^\d{14}$/);
        expect(luhnValid(company.identificationNumber)).toBe(true);
        expect(luhnValid(company.french.siren)).toBe(true);
        expect(company.french).toEqual({ siren: company.identificationNumber.slice(0, 9), siret: company.identificationNumber, legalForm: expect.any(String), apeCode: expect.stringMatching(/^\d{4}[A-Z]$/), idcc: expect.stringMatching(/^\d{4}$/) });
      }
      if (company.country === 'ES') expect(company.identificationNumber).toMatch(/^B\d{8}$/);
      if (company.country === 'GB') expect(company.identificationNumber).toMatch(/^\d{8}$/);
    }
  });

  test('the same data and bytes in a separate process (derived by formula)', () => {
    const script = `
      const { createSeedView } = require('./seed-view');
      const { loadClients } = require('./clients');
      const { companyDirectory } = require('./seed');
      const directory = companyDirectory(${GENERATED});
      const seed = createSeedView({ knobs: { accountingLines: null, paymentFileBytes: null, listedDocuments: null }, clients: loadClients(), companies: () => directory });
      const hash = (b) => require('crypto').createHash('sha256').update(b).digest('hex');
      console.log(JSON.stringify([hash(JSON.stringify(seed.companies)), hash(seed.paymentFile('ES6050', '202608')), hash(seed.accountingCsv('FR5077', '202609')), hash(seed.document('GB7098', 'gb7098-p45-2026-005'))]));`;
    const output = execFileSync(process.execPath, ['-e', script], { cwd: path.join(__dirname, '..') }).toString();
    const hash = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');
    expect(JSON.parse(output)).toEqual([
      hash(JSON.stringify(sandbox.seed.companies)),
      hash(sandbox.seed.paymentFile('ES6050', '202608')),
      hash(sandbox.seed.accountingCsv('FR5077', '202609')),
      hash(sandbox.seed.document('GB7098', 'gb7098-p45-2026-005')),
    ]);
  });

  test('a generated French company: every operation of its country', async () => {
    const id = 'FR5003';
    const { [id]: t } = await tokensFor([id]);
    const company = sandbox.seed.company(id);
    expect(await (await api(sandbox, `/companies/${id}`, { token: t })).json()).toEqual({ ...company, french: undefined, contracts: undefined });
    expect(await (await api(sandbox, `/companies-fr/${id}`, { token: t })).json()).toMatchObject({ id, ...company.french });
    // Seeded months, as for the seeded companies: completed 202607-202610 on the 28th at hh:42:05.
    const status = await (await api(sandbox, `/companies/${id}/payroll-status?date=202610`, { token: t })).json();
    expect(status).toEqual({ status: 'completed', executionEndDate: expect.stringMatching(/^2026-10-28T(0[89]|1[0-7]):42:05\.000Z$/) });
    expect(status).toEqual(sandbox.seed.payrollStatus(id, '202610'));
    expect(await (await api(sandbox, `/companies/${id}/payroll-status?date=202611`, { token: t })).json()).toEqual({ status: 'not_completed', executionEndDate: null });
    const file = await api(sandbox, `/companies/${id}/payment-files?date=202607`, { token: t });
    expect(Buffer.from(await file.arrayBuffer()).equals(sandbox.seed.paymentFile(id, '202607'))).toBe(true);
    const csv = await api(sandbox, `/companies/${id}/accounting?date=202608`, { token: t });
    expect(Buffer.from(await csv.arrayBuffer()).equals(sandbox.seed.accountingCsv(id, '202608'))).toBe(true);
    const entries = await (await api(sandbox, `/companies/${id}/accounting-v2?date=202608`, { token: t })).json();
    expect(entries).toEqual(sandbox.seed.accountingEntries(id, '202608'));
    expect(entries).toHaveLength(company.nbActiveContracts * 5 + 2);
    const health = await (await api(sandbox, `/companies/${id}/health-insurance-contracts`, { token: t })).json();
    expect(health.contracts).toEqual(sandbox.seed.healthInsuranceContracts(id));
    expect(health.contracts[0].affiliatedContractIds).toEqual(company.contracts.map((contract) => contract.contractId));
    const provident = await (await api(sandbox, `/companies/${id}/provident-fund-contracts`, { token: t })).json();
    expect(provident.contracts).toEqual(sandbox.seed.providentFundContracts(id));
    expect((await api(sandbox, `/companies/${id}/income-taxes-documents`, { token: t })).status).toBe(404);
    // Every fourth French company has no insurance contracts (like FR1002).
    const { FR5004: none } = await tokensFor(['FR5004']);
    expect(await (await api(sandbox, '/companies/FR5004/health-insurance-contracts', { token: none })).json()).toEqual({ contracts: [] });
  });

  test('a generated Spanish company: company, payroll status, payment files; French and UK operations are 404', async () => {
    const { ES6010: t } = await tokensFor(['ES6010']);
    expect((await (await api(sandbox, '/companies/ES6010', { token: t })).json()).country).toBe('ES');
    expect((await api(sandbox, '/companies/ES6010/payment-files?date=202609', { token: t })).status).toBe(200);
    for (const operation of ['/accounting-v2?date=202609', '/health-insurance-contracts', '/auto-enrolment-documents']) {
      expect((await api(sandbox, `/companies/ES6010${operation}`, { token: t })).status).toBe(404);
    }
    expect((await api(sandbox, '/companies-fr/ES6010', { token: t })).status).toBe(404);
  });

  test('a generated UK company: both listings, every listed PDF, the P45 of its leaver, a never-listed payslip', async () => {
    const id = 'GB7020';
    const { [id]: t } = await tokensFor([id]);
    const incomeTaxes = (await (await api(sandbox, `/companies/${id}/income-taxes-documents`, { token: t })).json()).documents;
    const autoEnrolment = (await (await api(sandbox, `/companies/${id}/auto-enrolment-documents`, { token: t })).json()).documents;
    expect(incomeTaxes.map((document) => document.type)).toEqual([...incomeTaxes.filter((d) => d.type === 'P60').map(() => 'P60'), 'P11D', 'P45']);
    expect(autoEnrolment).toHaveLength(1);
    expect(autoEnrolment[0].type).toBeUndefined();
    const leaver = sandbox.seed.company(id).contracts.find((contract) => !contract.active);
    expect(incomeTaxes.find((document) => document.type === 'P45').contractId).toBe(leaver.contractId);
    for (const document of [...incomeTaxes, ...autoEnrolment]) {
      expect(document.documentUrl).toBe(`/companies/${id}/contracts/${document.contractId}/documents/${document.documentId}`);
      const pdf = await api(sandbox, document.documentUrl, { token: t });
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="${document.name}"`);
      expect(Buffer.from(await pdf.arrayBuffer()).equals(sandbox.seed.document(id, document.documentId))).toBe(true);
    }
    const payslip = sandbox.seed.documents(id).find((document) => document.listing === null);
    expect((await api(sandbox, `/companies/${id}/documents/${payslip.documentId}`, { token: t })).status).toBe(404);
  });

  test('payroll statuses of generated companies switch through control', async () => {
    const switched = await control(sandbox, '/payroll-status', { method: 'POST', body: { companyId: 'GB7098', month: '202611', status: 'completed', executionEndDate: '2026-11-27T09:00:00.000Z' } });
    expect(switched.status).toBe(200);
    const { GB7098: t } = await tokensFor(['GB7098']);
    expect(await (await api(sandbox, '/companies/GB7098/payroll-status?date=202611', { token: t })).json()).toEqual({ status: 'completed', executionEndDate: '2026-11-27T09:00:00.000Z' });
  });

  test('reset takes generatedCompanies; without it, the start value comes back; bad values are refused', async () => {
    const fewer = await control(sandbox, '/reset', { method: 'POST', body: { generatedCompanies: 3 } });
    expect(fewer.body).toMatchObject({ reset: true, generatedCompanies: 3 });
    expect(sandbox.seed.companyIds).toEqual([...SEEDED_IDS, 'FR5001', 'ES6001', 'GB7001']);
    expect((await control(sandbox, '/tokens', { method: 'POST', body: { companyId: 'FR5002', scopes: [] } })).status).toBe(400);
    for (const generatedCompanies of [-1, 2998, 1.5, '3']) {
      expect((await control(sandbox, '/reset', { method: 'POST', body: { generatedCompanies } })).status).toBe(400);
    }
    expect((await control(sandbox, '/reset', { method: 'POST' })).body.generatedCompanies).toBe(GENERATED);
    expect(sandbox.seed.companyIds).toHaveLength(300);
  });

  test('a reset that would leave out the company of an initial token is refused, and changes nothing', async () => {
    const fixed = await startTestSandbox({ generatedCompanies: 3, initialTokens: [{ token: 'sbx_fixed_gb7001', companyId: 'GB7001', scopes: [] }] });
    try {
      const refused = await control(fixed, '/reset', { method: 'POST', body: { generatedCompanies: 2 } });
      expect(refused.status).toBe(400);
      expect(refused.body.details).toMatch(/GB7001/);
      expect(fixed.seed.companyIds).toHaveLength(7);
      expect((await api(fixed, '/companies/GB7001', { token: 'sbx_fixed_gb7001' })).status).toBe(200);
    } finally {
      await fixed.close();
    }
  });
});

describe('tokens in bulk: POST /_sandbox/tokens with an array', () => {
  test('300 tokens in one call; each works for its own company only', async () => {
    const ids = sandbox.seed.companyIds;
    const issued = await control(sandbox, '/tokens', { method: 'POST', body: ids.map((companyId) => ({ companyId, scopes: 'payment-files:read' })) });
    expect(issued.status).toBe(201);
    expect(issued.body).toHaveLength(300);
    expect(issued.body[4]).toEqual({ companyId: 'FR5001', clientId: 'n8n-local', kind: 'oauth', access_token: expect.stringMatching(/^sbx_/), token_type: 'bearer' });
    expect(issued.body.map((entry) => entry.companyId)).toEqual(ids);
    expect(new Set(issued.body.map((entry) => entry.access_token)).size).toBe(300);
    const statuses = await Promise.all(issued.body.map(({ companyId, access_token: t }) => api(sandbox, `/companies/${companyId}`, { token: t }).then((r) => r.status)));
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect((await api(sandbox, '/companies/FR5001', { token: issued.body[5].access_token })).status).toBe(404);
  }, 30_000); // 301 requests: over Jest's 5 s on a loaded 2-core machine

  test('all or none: a bad item or two OAuth tokens for one company and client refuse the whole batch', async () => {
    const { FR5001: before } = await tokensFor(['FR5001']);
    const bad = await control(sandbox, '/tokens', { method: 'POST', body: [{ companyId: 'FR5001', scopes: [] }, { companyId: 'ES6001', scopes: [] }, { companyId: 'XX9999', scopes: [] }] });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toBe('tokens[2]: Unknown companyId "XX9999"');
    const twice = await control(sandbox, '/tokens', { method: 'POST', body: [{ companyId: 'FR5001', scopes: [] }, { companyId: 'FR5001', scopes: [] }] });
    expect(twice.status).toBe(400);
    expect(twice.body.details).toMatch(/^tokens\[1\]: /);
    // FR5001's token was not replaced by either refused batch.
    expect((await api(sandbox, '/companies/FR5001', { token: before })).status).toBe(200);
    expect((await control(sandbox, '/tokens?companyId=ES6001')).body).toEqual([]);
  });

  test('API keys and other clients in the same batch; issueTokens from code', async () => {
    const issued = sandbox.issueTokens([
      { companyId: 'GB7001', scopes: ['pension:read'], kind: 'apiKey' },
      { companyId: 'GB7001', scopes: ['accounting:read'], clientId: 'restricted-app' },
      { companyId: 'GB7001', scopes: [] },
    ]);
    expect(issued.map(({ clientId, kind }) => [clientId, kind])).toEqual([[null, 'apiKey'], ['restricted-app', 'oauth'], ['n8n-local', 'oauth']]);
    expect(issued[0].access_token).toMatch(/^sbx_key_/);
    for (const { access_token: t } of issued) expect((await api(sandbox, '/companies/GB7001', { token: t })).status).toBe(200);
    expect(sandbox.issueTokens([])).toEqual([]);
  });
});

describe('the request log names the owner of the token, never the token', () => {
  test('every request of 300 companies carried the token of the company in its path', async () => {
    const ids = sandbox.seed.companyIds;
    const tokens = await tokensFor(ids);
    await Promise.all(ids.map((id) => api(sandbox, `/companies/${id}/payroll-status?date=202607`, { token: tokens[id] })));
    const log = (await control(sandbox, '/requests')).body;
    expect(log).toHaveLength(300);
    for (const entry of log) {
      expect(entry.tokenCompanyId).toBe(entry.path.split('/')[4]);
      expect(entry.tokenClientId).toBe('n8n-local');
    }
    expect(JSON.stringify(log)).not.toContain(tokens.FR5001);
  });

  test("another company's token, an API key, an unknown token and none", async () => {
    const tokens = await tokensFor(['ES6002']);
    const key = sandbox.issueTokens([{ companyId: 'FR5002', scopes: [], kind: 'apiKey' }])[0].access_token;
    await control(sandbox, '/requests', { method: 'DELETE' });
    await api(sandbox, '/companies/FR5002', { token: tokens.ES6002 });
    await api(sandbox, '/companies/FR5002', { token: key });
    await api(sandbox, '/companies/FR5002', { token: 'sbx_not_a_token_at_all' });
    await api(sandbox, '/companies/FR5002');
    const log = (await control(sandbox, '/requests')).body;
    expect(log.map(({ status, tokenCompanyId, tokenClientId }) => [status, tokenCompanyId, tokenClientId])).toEqual([
      [404, 'ES6002', 'n8n-local'],
      [200, 'FR5002', null],
      [401, null, null],
      [401, null, null],
    ]);
    expect(log[0].authorization).toBe(`Bearer …${tokens.ES6002.slice(-4)}`);
  });
});

describe('consent page with 300 companies', () => {
  test('every company is an option, by id; company_hint preselects one the sandbox serves', async () => {
    const html = await (await fetch(authorizeUrl(sandbox, defaultAuthorizeParams()))).text();
    const options = [...html.matchAll(/<option value="([^"]+)"/g)].map((match) => match[1]);
    expect(options).toEqual(sandbox.seed.companyIds);
    expect(html).not.toContain(' selected');
    const hinted = await (await fetch(authorizeUrl(sandbox, defaultAuthorizeParams({ company_hint: 'FR5003' })))).text();
    expect(hinted.match(/<option [^>]*selected>/g)).toEqual(['<option value="FR5003" selected>']);
    // The hint is not an authorization parameter: it is not carried back by the form.
    expect(hinted).not.toContain('name="company_hint"');
    for (const hint of ['FR5999', 'nobody']) {
      const ignored = await (await fetch(authorizeUrl(sandbox, defaultAuthorizeParams({ company_hint: hint })))).text();
      expect(ignored).not.toContain(' selected');
    }
  });

  test('the authorization-code flow for a generated company gives a token of that company', async () => {
    const code = await obtainCode(sandbox, {}, { companyId: 'GB7005' });
    const { body } = await tokenRequest(sandbox, exchangeFields(code));
    expect((await api(sandbox, '/companies/GB7005', { token: body.access_token })).status).toBe(200);
    const introspection = await fetch(`${sandbox.authServerUrl}/introspect`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${body.access_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: body.access_token }),
    });
    expect(await introspection.json()).toMatchObject({ active: true, company_id: 'GB7005', client_id: 'n8n-local' });
  });
});

describe('integration events for generated companies', () => {
  let receiver;
  let received;
  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.writeHead(204).end();
      });
    });
    await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => receiver.close(resolve)));

  test('activated and deactivated for any company; revoking a token sends nothing by itself', async () => {
    received = [];
    await control(sandbox, '/webhooks', { method: 'POST', body: { url: `http://127.0.0.1:${receiver.address().port}/hooks` } });
    await tokensFor(['ES6099']);
    const activated = await control(sandbox, '/webhooks/integration', { method: 'POST', body: { companyId: 'ES6099', event: 'activated', effectiveDate: '2026-11-02T10:00:00Z' } });
    expect(activated.body.deliveries).toEqual([{ endpointId: 'ep_1', state: 'delivered', attempts: 1 }]);
    expect((await control(sandbox, '/tokens/revoke', { method: 'POST', body: { companyId: 'ES6099' } })).body).toEqual({ revoked: 1 });
    const deactivated = await control(sandbox, '/webhooks/integration', { method: 'POST', body: { companyId: 'ES6099', event: 'deactivated', effectiveDate: '2026-11-03T10:00:00Z' } });
    expect(deactivated.body.deliveries[0].state).toBe('delivered');
    expect(received).toEqual([
      { type: 'integration.activated', data: { companyId: 'ES6099', effectiveDate: '2026-11-02T10:00:00+00:00' } },
      { type: 'integration.deactivated', data: { companyId: 'ES6099', effectiveDate: '2026-11-03T10:00:00+00:00' } },
    ]);
    expect((await control(sandbox, '/webhooks/messages')).body).toHaveLength(2);
  });
});
