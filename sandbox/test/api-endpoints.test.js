'use strict';
// Every operation of the spec's Endpoints table: the success case, then each of 401, 404 (other company),
// 403 (missing scope), 404 (other country) and 400 (date) that applies to it.

const { ALL_API_SCOPES, startTestSandbox, api, token } = require('./helpers');

const DOCUMENT_ID = 'gb3001-p60-2025-001';
const VALID_DECLARATION = { monthOfApplication: '202607', quantityByProducts: [{ productName: 'payroll', quantity: 5 }] };

/**
 * What the spec says of each operation. `company`: where it succeeds; `foreign`: a company of another
 * country; `scopes`: any of them suffices; `prepare`: what must happen before it can succeed.
 */
const OPERATIONS = [
  { id: 'GET_company', path: (c) => `/companies/${c}`, company: 'FR1001' },
  { id: 'GET_company_fr', path: (c) => `/companies-fr/${c}`, company: 'FR1001', country: 'FR', foreign: 'GB3001' },
  { id: 'POST_partner_declarations', method: 'POST', path: (c) => `/companies/${c}/billing-declarations`, company: 'ES2001', body: VALID_DECLARATION },
  { id: 'GET_companyPaymentFile', path: (c) => `/companies/${c}/payment-files`, company: 'ES2001', scopes: ['payment-files:read'], date: true },
  { id: 'GET_companyAccounting', path: (c) => `/companies/${c}/accounting`, company: 'FR1001', scopes: ['accounting:read'], country: 'FR', foreign: 'ES2001', date: true },
  { id: 'GET_companyAccountingV2', path: (c) => `/companies/${c}/accounting-v2`, company: 'FR1001', scopes: ['accounting:read'], country: 'FR', foreign: 'GB3001', date: true },
  { id: 'GET_companyPayrollStatus', path: (c) => `/companies/${c}/payroll-status`, company: 'GB3001', date: true },
  { id: 'GET_companyIncomeTaxesDocuments', path: (c) => `/companies/${c}/income-taxes-documents`, company: 'GB3001', scopes: ['contracts:payslips:read'], country: 'GB', foreign: 'FR1001' },
  { id: 'GET_companyAutoEnrolmentDocuments', path: (c) => `/companies/${c}/auto-enrolment-documents`, company: 'GB3001', scopes: ['pension:read'], country: 'GB', foreign: 'ES2001' },
  { id: 'GET_healthInsuranceContracts', path: (c) => `/companies/${c}/health-insurance-contracts`, company: 'FR1001', scopes: ['health-insurance:read'], country: 'FR', foreign: 'GB3001' },
  { id: 'GET_providentFundContracts', path: (c) => `/companies/${c}/provident-fund-contracts`, company: 'FR1001', scopes: ['health-insurance:read'], country: 'FR', foreign: 'ES2001' },
  { id: 'GET_document_by_id', path: (c) => `/companies/${c}/documents/${DOCUMENT_ID}`, company: 'GB3001', scopes: ['contracts:payslips:read', 'pension:read'],
    prepare: (sandbox, t) => api(sandbox, '/companies/GB3001/income-taxes-documents', { token: t }) },
];

const BAD_DATES = ['2026-07', '202613', '202600', '102607', '20267', '2026071', 'abcdef', '2O2607', ' 202607'];

let sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

function call(operation, companyId, t, query = operation.date ? '?date=202607' : '') {
  return api(sandbox, `${operation.path(companyId)}${query}`, { token: t, method: operation.method, body: operation.body });
}

const SUCCESS_CHECKS = {
  GET_company: async (response) => {
    expect(await response.json()).toEqual({
      id: 'FR1001', name: 'Boulangerie Électrique SAS', country: 'FR', identificationNumber: '85234567700011',
      address: "12 rue de l'Épée", city: 'Lyon', postalCode: '69002', nbActiveContracts: 5,
    });
  },
  GET_company_fr: async (response) => {
    const body = await response.json();
    expect(body).toMatchObject({ id: 'FR1001', country: 'FR', identificationNumber: '85234567700011', siren: '852345677', nbActiveContracts: 5 });
    expect(body.identificationNumber).toMatch(/^\d{14}$/);
    expect(Object.keys(body).length).toBeGreaterThan(9);
  },
  POST_partner_declarations: async (response) => {
    expect(await response.text()).toBe('');
  },
  GET_companyPaymentFile: async (response) => {
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await response.arrayBuffer()).equals(sandbox.seed.paymentFile('ES2001', '202607'))).toBe(true);
  },
  GET_companyAccounting: async (response) => {
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await response.arrayBuffer()).equals(sandbox.seed.accountingCsv('FR1001', '202607'))).toBe(true);
  },
  GET_companyAccountingV2: async (response) => {
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(sandbox.seed.accountingEntries('FR1001', '202607'));
  },
  GET_companyPayrollStatus: async (response) => {
    expect(await response.json()).toEqual({ status: 'completed', executionEndDate: '2026-07-28T14:42:05.000Z' });
  },
  GET_companyIncomeTaxesDocuments: async (response) => {
    const body = await response.json();
    expect(Object.keys(body)).toEqual(['documents']);
    expect(body.documents.map((d) => d.type)).toEqual(['P60', 'P60', 'P11D', 'P45']);
  },
  GET_companyAutoEnrolmentDocuments: async (response) => {
    const body = await response.json();
    expect(Object.keys(body)).toEqual(['documents']);
    expect(body.documents).toHaveLength(2);
    for (const document of body.documents) expect(document).not.toHaveProperty('type');
  },
  GET_healthInsuranceContracts: async (response) => {
    expect((await response.json()).contracts).toHaveLength(3);
  },
  GET_providentFundContracts: async (response) => {
    expect((await response.json()).contracts).toHaveLength(3);
  },
  GET_document_by_id: async (response) => {
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await response.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  },
};

describe.each(OPERATIONS.map((operation) => [operation.id, operation]))('%s', (id, operation) => {
  const fullToken = () => token(sandbox, operation.company);

  test('success', async () => {
    const t = fullToken();
    if (operation.prepare) await operation.prepare(sandbox, t);
    const response = await call(operation, operation.company, t);
    expect(response.status).toBe(operation.method === 'POST' ? 204 : 200);
    await SUCCESS_CHECKS[id](response);
  });

  test('401 without a token, with an unknown or revoked token, or a malformed header; body {code, error} only', async () => {
    const revoked = fullToken();
    sandbox.issueToken({ companyId: operation.company, scopes: ALL_API_SCOPES }); // replaces `revoked`
    const attempts = [
      call(operation, operation.company, undefined),
      call(operation, operation.company, 'sbx_unknown_token_value'),
      call(operation, operation.company, revoked),
      api(sandbox, operation.path(operation.company), { method: operation.method, headers: { Authorization: `Token ${revoked}` } }),
      api(sandbox, operation.path(operation.company), { method: operation.method, headers: { Authorization: 'Bearer' } }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ code: 401, error: 'Unauthorized' });
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  test('404 for another company id (existing or not), with the sample body', async () => {
    const other = operation.company === 'FR1001' ? 'FR1002' : 'FR1001';
    for (const companyId of [other, 'ZZ9999']) {
      const response = await call(operation, companyId, fullToken());
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ code: 404, error: 'Ressource not found', details: 'The provided id is wrong' });
    }
  });

  if (operation.scopes) {
    test(`403 when the token lacks ${operation.scopes.join(' and ')}`, async () => {
      const t = token(sandbox, operation.company, ALL_API_SCOPES.filter((scope) => !operation.scopes.includes(scope)));
      const response = await call(operation, operation.company, t);
      expect(response.status).toBe(403);
      const details = `Missing scope ${operation.scopes.map((scope) => `"${scope}"`).join(' or ')}.`;
      expect(await response.json()).toEqual({ code: 403, error: 'Forbidden action', details });
    });

    test('each listed scope suffices on its own', async () => {
      for (const scope of operation.scopes) {
        const t = token(sandbox, operation.company, [scope]);
        if (operation.prepare) await operation.prepare(sandbox, token(sandbox, operation.company, ALL_API_SCOPES, { kind: 'apiKey' }));
        expect((await call(operation, operation.company, t)).status).toBe(200);
      }
    });
  }

  if (operation.country) {
    test(`404 for a company outside ${operation.country}, naming the country`, async () => {
      const response = await call(operation, operation.foreign, token(sandbox, operation.foreign));
      expect(response.status).toBe(404);
      const body = await response.json();
      expect(body).toMatchObject({ code: 404, error: 'Ressource not found' });
      expect(body.details).toContain(`only available for companies in ${operation.country}`);
      expect(body.details).toContain(operation.foreign);
    });
  }

  if (operation.date) {
    test('400 when date is missing, naming the field and the format', async () => {
      for (const query of ['', '?date=', '?month=202607']) {
        const response = await call(operation, operation.company, fullToken(), query);
        expect(response.status).toBe(400);
        const body = await response.json();
        expect(body).toMatchObject({ code: 400, error: 'Bad Request' });
        expect(body.details).toMatch(/"date"/);
        expect(body.details).toMatch(/YYYYMM/);
      }
    });

    test.each(BAD_DATES)('400 for date=%j', async (date) => {
      const response = await call(operation, operation.company, fullToken(), `?date=${encodeURIComponent(date)}`);
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.details).toMatch(/"date"/);
      expect(body.details).toMatch(/YYYYMM/);
    });

    test('400 when date is repeated', async () => {
      expect((await call(operation, operation.company, fullToken(), '?date=202607&date=202608')).status).toBe(400);
    });
  }
});

describe('order of the checks', () => {
  test('other company (404) before missing scope (403) before wrong country (404) before bad date (400)', async () => {
    const noScope = token(sandbox, 'GB3001', []);
    expect((await api(sandbox, '/companies/FR1001/accounting?date=bad', { token: noScope })).status).toBe(404);
    const gbNoScope = await api(sandbox, '/companies/GB3001/accounting?date=bad', { token: noScope });
    expect(gbNoScope.status).toBe(403);
    const gbFull = await api(sandbox, '/companies/GB3001/accounting?date=bad', { token: token(sandbox, 'GB3001') });
    expect(gbFull.status).toBe(404);
    expect((await gbFull.json()).details).toMatch(/only available for companies in FR/);
  });

  test('401 comes before everything but the path', async () => {
    expect((await api(sandbox, '/companies/ZZ/accounting?date=bad')).status).toBe(401);
  });
});

describe('paths', () => {
  test('unknown paths answer 404 with an error body, without needing a token', async () => {
    for (const path of ['/companies', '/companies/FR1001/unknown', '/companies/FR1001/', '/employees/1']) {
      const response = await api(sandbox, path);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: 404, error: 'Ressource not found' });
    }
    const outside = await fetch(`${sandbox.url}/companies/FR1001`);
    expect(outside.status).toBe(404);
  });

  test('a known path with another method answers 405 with Allow', async () => {
    const response = await api(sandbox, '/companies/FR1001', { method: 'DELETE', token: token(sandbox, 'FR1001') });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });

  test('HEAD is answered like GET, without a body', async () => {
    const response = await api(sandbox, '/companies/FR1001/payment-files?date=202607', { method: 'HEAD', token: token(sandbox, 'FR1001') });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBe(sandbox.seed.paymentFile('FR1001', '202607').length);
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  test('path parameters are percent-decoded', async () => {
    const response = await api(sandbox, '/companies/%46R1001', { token: token(sandbox, 'FR1001') });
    expect(response.status).toBe(200);
  });

  test('company API keys reach the same endpoints with their fixed scopes', async () => {
    const key = token(sandbox, 'FR1001', ['accounting:read'], { kind: 'apiKey' });
    expect((await api(sandbox, '/companies/FR1001/accounting-v2?date=202608', { token: key })).status).toBe(200);
    expect((await api(sandbox, '/companies/FR1001/health-insurance-contracts', { token: key })).status).toBe(403);
  });
});
