'use strict';
// POST_partner_declarations: validation of the body, 204 and storage, partners only.

const { startTestSandbox, api, control, token } = require('./helpers');

let sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

function declare(body, t = token(sandbox, 'FR1001', []), headers) {
  return api(sandbox, '/companies/FR1001/billing-declarations', { method: 'POST', token: t, body, headers });
}

async function stored(companyId = 'FR1001') {
  return (await control(sandbox, `/billing-declarations?companyId=${companyId}`)).body;
}

test('quantityByProducts: 204 with an empty body, stored with company, client and items', async () => {
  const response = await declare({ monthOfApplication: '202607', quantityByProducts: [{ productName: 'payroll', quantity: 12 }, { productName: 'meal vouchers', quantity: 1534.5 }] });
  expect(response.status).toBe(204);
  expect(await response.text()).toBe('');
  expect(await stored()).toEqual([{
    companyId: 'FR1001',
    clientId: 'n8n-local',
    monthOfApplication: '202607',
    quantityByProducts: [{ productName: 'payroll', quantity: 12 }, { productName: 'meal vouchers', quantity: 1534.5 }],
    receivedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
  }]);
});

test('the deprecated employeesByProducts is still accepted', async () => {
  expect((await declare({ monthOfApplication: '202612', employeesByProducts: [{ productName: 'payroll', numberOfEmployees: 4 }] })).status).toBe(204);
  expect((await stored())[0]).toMatchObject({ monthOfApplication: '202612', employeesByProducts: [{ productName: 'payroll', numberOfEmployees: 4 }] });
});

const INVALID_BODIES = [
  ['empty object', {}, 'monthOfApplication'],
  ['month with a dash', { monthOfApplication: '2026-07', quantityByProducts: [{ productName: 'p', quantity: 1 }] }, 'monthOfApplication'],
  ['month as a number', { monthOfApplication: 202607, quantityByProducts: [{ productName: 'p', quantity: 1 }] }, 'monthOfApplication'],
  ['month 13', { monthOfApplication: '202613', quantityByProducts: [{ productName: 'p', quantity: 1 }] }, 'monthOfApplication'],
  ['year not starting with 2', { monthOfApplication: '190001', quantityByProducts: [{ productName: 'p', quantity: 1 }] }, 'monthOfApplication'],
  ['no product list', { monthOfApplication: '202607' }, 'quantityByProducts'],
  ['both product lists', { monthOfApplication: '202607', quantityByProducts: [{ productName: 'p', quantity: 1 }], employeesByProducts: [{ productName: 'p', numberOfEmployees: 1 }] }, 'quantityByProducts'],
  ['empty list', { monthOfApplication: '202607', quantityByProducts: [] }, 'quantityByProducts'],
  ['list not an array', { monthOfApplication: '202607', quantityByProducts: 'payroll' }, 'quantityByProducts'],
  ['item not an object', { monthOfApplication: '202607', quantityByProducts: ['payroll'] }, 'quantityByProducts[0]'],
  ['productName missing', { monthOfApplication: '202607', quantityByProducts: [{ quantity: 1 }] }, 'quantityByProducts[0].productName'],
  ['productName not a string', { monthOfApplication: '202607', quantityByProducts: [{ productName: 7, quantity: 1 }] }, 'quantityByProducts[0].productName'],
  ['quantity missing', { monthOfApplication: '202607', quantityByProducts: [{ productName: 'p' }] }, 'quantityByProducts[0].quantity'],
  ['quantity as a string', { monthOfApplication: '202607', quantityByProducts: [{ productName: 'p', quantity: 1 }, { productName: 'q', quantity: '5' }] }, 'quantityByProducts[1].quantity'],
  ['numberOfEmployees not an integer', { monthOfApplication: '202607', employeesByProducts: [{ productName: 'p', numberOfEmployees: 2.5 }] }, 'employeesByProducts[0].numberOfEmployees'],
  ['numberOfEmployees missing', { monthOfApplication: '202607', employeesByProducts: [{ productName: 'p' }] }, 'employeesByProducts[0].numberOfEmployees'],
  ['a JSON array', [], 'body'],
];

test.each(INVALID_BODIES)('400 for %s, naming %s', async (label, body, field) => {
  const response = await declare(body);
  expect(response.status).toBe(400);
  const result = await response.json();
  expect(result).toMatchObject({ code: 400, error: 'Bad Request' });
  expect(result.details).toContain(field);
  expect(result.errors.map((problem) => problem.field)).toContain(field);
  expect(await stored()).toEqual([]);
});

test('400 for a body that is not JSON or not sent as JSON', async () => {
  const broken = await declare('{"monthOfApplication": ', undefined, { 'Content-Type': 'application/json' });
  expect(broken.status).toBe(400);
  expect((await broken.json()).details).toMatch(/JSON/);
  const form = await declare('monthOfApplication=202607', undefined, { 'Content-Type': 'application/x-www-form-urlencoded' });
  expect(form.status).toBe(400);
});

test('partners only: a company API key gets 403', async () => {
  const key = token(sandbox, 'FR1001', ['accounting:read'], { kind: 'apiKey' });
  const response = await declare({ monthOfApplication: '202607', quantityByProducts: [{ productName: 'p', quantity: 1 }] }, key);
  expect(response.status).toBe(403);
  expect(await response.json()).toEqual({ code: 403, error: 'Forbidden action', details: 'Only partners can declare billing data' });
  expect(await stored()).toEqual([]);
});

test('partners only: a registered client without partner status gets 403', async () => {
  const other = await startTestSandbox({
    clients: [{ clientId: 'plain-app', clientSecret: 's', redirectUris: ['http://127.0.0.1:1/cb'], allowedScopes: [], partner: false }],
  });
  try {
    const t = other.issueToken({ companyId: 'FR1001', scopes: [] }).access_token;
    const response = await api(other, '/companies/FR1001/billing-declarations', {
      method: 'POST', token: t, body: { monthOfApplication: '202607', quantityByProducts: [{ productName: 'p', quantity: 1 }] },
    });
    expect(response.status).toBe(403);
  } finally {
    await other.close();
  }
});

test('declarations are filtered by company in the control listing and cleared by reset', async () => {
  const body = { monthOfApplication: '202607', quantityByProducts: [{ productName: 'p', quantity: 1 }] };
  await declare(body);
  await api(sandbox, '/companies/GB3001/billing-declarations', { method: 'POST', token: token(sandbox, 'GB3001', []), body });
  expect(await stored('FR1001')).toHaveLength(1);
  expect((await control(sandbox, '/billing-declarations')).body).toHaveLength(2);
  sandbox.reset();
  expect((await control(sandbox, '/billing-declarations')).body).toEqual([]);
});
