'use strict';
// Company records and French insurance contracts: fields and types of the spec.

const { startTestSandbox, api, token } = require('./helpers');

const COMPANY_KEYS = ['id', 'name', 'country', 'identificationNumber', 'address', 'city', 'postalCode', 'nbActiveContracts'];
const CONTRACT_KEYS = ['idContrat', 'refContrat', 'codePopulation', 'codeOption', 'affiliatedContractIds', 'modeCalculCotisation', 'baseDeCotisation'];
const RATE_KEYS = ['tauxCotisationPatronale', 'tauxCotisationSalariale'];

let sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

async function get(companyId, path) {
  const response = await api(sandbox, path, { token: token(sandbox, companyId) });
  expect(response.status).toBe(200);
  return response.json();
}

test.each([
  ['FR1001', 'FR', /^\d{14}$/],
  ['FR1002', 'FR', /^\d{14}$/],
  ['ES2001', 'ES', /^[A-Z]\d{7}[0-9A-J]$/],
  ['GB3001', 'GB', /^[A-Z0-9]{8}$/],
])('GET /companies/%s: exactly the company fields', async (companyId, country, identification) => {
  const company = await get(companyId, `/companies/${companyId}`);
  expect(Object.keys(company)).toEqual(COMPANY_KEYS);
  expect(company.id).toBe(companyId);
  expect(company.country).toBe(country);
  expect(company.identificationNumber).toMatch(identification);
  expect(Number.isInteger(company.nbActiveContracts)).toBe(true);
  for (const key of COMPANY_KEYS.filter((k) => k !== 'nbActiveContracts')) expect(typeof company[key]).toBe('string');
});

test('names and addresses keep their accents and symbols', async () => {
  expect((await get('ES2001', '/companies/ES2001')).name).toBe('Panadería Ñandú S.L.');
  expect((await get('GB3001', '/companies/GB3001')).name).toBe('Thistle & Rose Ltd');
  expect((await get('GB3001', '/companies/GB3001')).nbActiveContracts).toBe(4); // the P45 leaver is not active
});

test('company-fr: the company fields plus French ones, deprecated siren consistent with the SIRET', async () => {
  const record = await get('FR1001', '/companies-fr/FR1001');
  expect(Object.keys(record).slice(0, COMPANY_KEYS.length)).toEqual(COMPANY_KEYS);
  expect(record.identificationNumber.startsWith(record.siren)).toBe(true);
  expect(record).toMatchObject({ legalForm: 'SAS', apeCode: '1071C' });
});

function checkContract(contract, keys, baseValues) {
  expect(Object.keys(contract)).toEqual(keys);
  expect(typeof contract.idContrat).toBe('string');
  for (const key of ['refContrat', 'codePopulation', 'codeOption']) expect(contract[key] === null || typeof contract[key] === 'string').toBe(true);
  expect(Array.isArray(contract.affiliatedContractIds)).toBe(true);
  expect([null, '1', '2', '3']).toContain(contract.modeCalculCotisation);
  expect(baseValues).toContain(contract.baseDeCotisation);
}

test('health-insurance contracts: all fields, nullable ones both set and null, rates between 0 and 1', async () => {
  const { contracts } = await get('FR1001', '/companies/FR1001/health-insurance-contracts');
  for (const contract of contracts) {
    checkContract(contract, [...CONTRACT_KEYS, ...RATE_KEYS], [null, '1', '2', '3', '4', '5']);
    for (const key of RATE_KEYS) {
      if (contract[key] !== null) {
        expect(contract[key]).toBeGreaterThanOrEqual(0);
        expect(contract[key]).toBeLessThanOrEqual(1);
      }
    }
  }
  for (const key of ['refContrat', 'modeCalculCotisation', 'tauxCotisationPatronale']) {
    expect(contracts.some((contract) => contract[key] === null)).toBe(true);
    expect(contracts.some((contract) => contract[key] !== null)).toBe(true);
  }
});

test('provident-fund contracts: no rate fields, baseDeCotisation may be "6"', async () => {
  const { contracts } = await get('FR1001', '/companies/FR1001/provident-fund-contracts');
  for (const contract of contracts) checkContract(contract, CONTRACT_KEYS, [null, '1', '2', '3', '4', '5', '6']);
  expect(contracts.map((contract) => contract.baseDeCotisation)).toContain('6');
  expect(contracts.some((contract) => contract.refContrat === null)).toBe(true);
});

test('a French company without insurance contracts gets empty lists', async () => {
  expect(await get('FR1002', '/companies/FR1002/health-insurance-contracts')).toEqual({ contracts: [] });
  expect(await get('FR1002', '/companies/FR1002/provident-fund-contracts')).toEqual({ contracts: [] });
});

test('payroll-status: completed months carry a UTC date-time, others null', async () => {
  const t = token(sandbox, 'FR1001');
  const status = async (month) => (await api(sandbox, `/companies/FR1001/payroll-status?date=${month}`, { token: t })).json();
  expect(await status('202610')).toEqual({ status: 'completed', executionEndDate: '2026-10-28T17:42:05.000Z' });
  for (const month of ['202607', '202608', '202609']) expect((await status(month)).status).toBe('completed');
  for (const month of ['202611', '202612', '202606', '209912']) expect(await status(month)).toEqual({ status: 'not_completed', executionEndDate: null });
});
