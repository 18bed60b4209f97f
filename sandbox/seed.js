'use strict';
// Static seed data: companies, employee contracts, UK documents, French insurance contracts and the seeded
// payroll months. Everything is literal or derived by formula, so every run serves exactly the same data.
// The lookups below also answer for generated companies (generated-companies.js); which companies a given
// sandbox serves is its company directory's business (companyDirectory).
// Generated files (payment files, accounting, PDFs) are built from this in their own modules.

const { boundedCache } = require('./deterministic');
const { InputError } = require('./errors');
const { generatedCompany, generatedCompanyIds, MAX_GENERATED_COMPANIES } = require('./generated-companies');

const COMPANIES = [
  {
    id: 'FR1001',
    name: 'Boulangerie Électrique SAS',
    country: 'FR',
    identificationNumber: '85234567700011', // SIRET (14 digits, Luhn-valid)
    address: "12 rue de l'Épée",
    city: 'Lyon',
    postalCode: '69002',
    // Extra fields of the French record (GET /companies-fr); `siren` and `siret` are deprecated there.
    french: { siren: '852345677', siret: '85234567700011', legalForm: 'SAS', apeCode: '1071C', idcc: '0843' },
    executionHourUtc: 17,
  },
  {
    id: 'FR1002',
    name: 'Café du Rhône SARL',
    country: 'FR',
    identificationNumber: '79123456000013',
    address: '3 quai Général-Sarrail',
    city: 'Villeurbanne',
    postalCode: '69100',
    french: { siren: '791234560', siret: '79123456000013', legalForm: 'SARL', apeCode: '5630Z', idcc: '1979' },
    executionHourUtc: 16,
  },
  {
    id: 'ES2001',
    name: 'Panadería Ñandú S.L.',
    country: 'ES',
    identificationNumber: 'B87654323', // CIF
    address: 'Calle de la Peña 7',
    city: 'Madrid',
    postalCode: '28013',
    executionHourUtc: 15,
  },
  {
    id: 'GB3001',
    name: 'Thistle & Rose Ltd',
    country: 'GB',
    identificationNumber: 'SC612345', // Companies House number
    address: '221 Thistle Street',
    city: 'Edinburgh',
    postalCode: 'EH2 1EN',
    executionHourUtc: 14,
  },
];

// Analytic sections of FR1001's accounting settings; values deliberately carry `;`, `"` and accents.
const TEAM_OVEN = { type: 'Équipe', code: 'FOUR', value: 'Fournil' };
const TEAM_SHOP = { type: 'Équipe', code: 'VENTE', value: 'Boutique; comptoir' };
const SITE_LYON = { type: 'Site', code: 'LYO2', value: 'Lyon 2e "Presqu\'île"' };
const SITE_NONE = { type: 'Site', code: null, value: 'Sans site' };
const PROJECT_ELEC = { type: 'Projet', code: 'ELEC-26', value: 'Four électrique' };
const COST_CENTRE = { type: 'Centre de coût', code: 'CC-100', value: null };

/** Employee contracts; `active: false` contracts are leavers (not counted, not paid). */
const CONTRACTS = {
  FR1001: [
    { contractId: 'ctr_fr1001_001', fullName: 'Zoé Lefèvre-Dupont', active: true, grossCents: 285000, analyticCodes: [TEAM_OVEN, SITE_LYON] },
    { contractId: 'ctr_fr1001_002', fullName: 'Amélie Poulain', active: true, grossCents: 214050, analyticCodes: [TEAM_SHOP, SITE_LYON] },
    { contractId: 'ctr_fr1001_003', fullName: 'Jean-Noël "Jeannot" Brûlé', active: true, grossCents: 198000, analyticCodes: [TEAM_OVEN, SITE_NONE, PROJECT_ELEC, COST_CENTRE] },
    { contractId: 'ctr_fr1001_004', fullName: 'Françoise Œuvray', active: true, grossCents: 320075, analyticCodes: [TEAM_SHOP] },
    { contractId: 'ctr_fr1001_005', fullName: 'Mathis Nguyễn', active: true, grossCents: 176620, analyticCodes: [] },
  ],
  // A company with few data: no analytic settings, no insurance contracts.
  FR1002: [{ contractId: 'ctr_fr1002_001', fullName: 'Louis Pâquet', active: true, grossCents: 189000, analyticCodes: [] }],
  ES2001: [
    { contractId: 'ctr_es2001_001', fullName: 'José Núñez', active: true, grossCents: 230000, analyticCodes: [] },
    { contractId: 'ctr_es2001_002', fullName: 'María Peña', active: true, grossCents: 198500, analyticCodes: [] },
    { contractId: 'ctr_es2001_003', fullName: 'Íñigo Ibáñez', active: true, grossCents: 254000, analyticCodes: [] },
  ],
  GB3001: [
    { contractId: 'ctr_gb3001_001', fullName: 'Jane Doe', active: true, grossCents: 310000, analyticCodes: [] },
    { contractId: 'ctr_gb3001_002', fullName: 'Alasdair MacLeod', active: true, grossCents: 275000, analyticCodes: [] },
    { contractId: 'ctr_gb3001_003', fullName: 'Priya Shah', active: true, grossCents: 262500, analyticCodes: [] },
    { contractId: 'ctr_gb3001_004', fullName: 'Owen Jones', active: true, grossCents: 405000, analyticCodes: [] },
    { contractId: 'ctr_gb3001_005', fullName: 'Fiona Campbell', active: false, grossCents: 240000, analyticCodes: [] },
  ],
};

/**
 * UK documents of GB3001. `listing` says which listing returns the document; the payslip has none, so it
 * exists but can never be fetched through GET_document_by_id (spec rule 2).
 */
const DOCUMENTS = {
  GB3001: [
    { documentId: 'gb3001-p60-2025-001', listing: 'incomeTaxes', type: 'P60', contractId: 'ctr_gb3001_001', year: '2025', month: '04', createdAt: '2025-05-20T09:15:00.000Z' },
    { documentId: 'gb3001-p60-2025-002', listing: 'incomeTaxes', type: 'P60', contractId: 'ctr_gb3001_002', year: '2025', month: '04', createdAt: '2025-05-20T09:15:07.000Z' },
    { documentId: 'gb3001-p11d-2025-004', listing: 'incomeTaxes', type: 'P11D', contractId: 'ctr_gb3001_004', year: '2025', month: '07', createdAt: '2025-07-01T08:30:00.000Z' },
    { documentId: 'gb3001-p45-2026-005', listing: 'incomeTaxes', type: 'P45', contractId: 'ctr_gb3001_005', year: '2026', month: '08', createdAt: '2026-08-29T16:05:44.000Z' },
    { documentId: 'gb3001-ae-2026-001', listing: 'autoEnrolment', type: 'AutoEnrolmentLetter', contractId: 'ctr_gb3001_001', year: '2026', month: '07', createdAt: '2026-07-03T10:00:00.000Z' },
    { documentId: 'gb3001-ae-2026-003', listing: 'autoEnrolment', type: 'AutoEnrolmentLetter', contractId: 'ctr_gb3001_003', year: '2026', month: '07', createdAt: '2026-07-03T10:00:02.000Z' },
    { documentId: 'gb3001-payslip-202607-001', listing: null, type: 'Payslip', contractId: 'ctr_gb3001_001', year: '2026', month: '07', createdAt: '2026-07-28T14:42:05.000Z' },
  ],
};

/** French insurance contracts; nullable fields appear both set and null. */
const HEALTH_INSURANCE_CONTRACTS = {
  FR1001: [
    { idContrat: 'hi-fr1001-001', refContrat: 'MUT-2026-ÉLEC-01', codePopulation: 'CADRES', codeOption: 'OPT2', affiliatedContractIds: ['ctr_fr1001_001', 'ctr_fr1001_004'], modeCalculCotisation: '1', baseDeCotisation: '2', tauxCotisationPatronale: 0.5, tauxCotisationSalariale: 0.5 },
    { idContrat: 'hi-fr1001-002', refContrat: 'MUT-2026-ÉLEC-02', codePopulation: 'NON_CADRES', codeOption: null, affiliatedContractIds: ['ctr_fr1001_002', 'ctr_fr1001_003', 'ctr_fr1001_005'], modeCalculCotisation: '3', baseDeCotisation: '4', tauxCotisationPatronale: 0.6, tauxCotisationSalariale: 0.4 },
    { idContrat: 'hi-fr1001-003', refContrat: null, codePopulation: null, codeOption: null, affiliatedContractIds: [], modeCalculCotisation: null, baseDeCotisation: null, tauxCotisationPatronale: null, tauxCotisationSalariale: null },
  ],
  FR1002: [],
};

const PROVIDENT_FUND_CONTRACTS = {
  FR1001: [
    { idContrat: 'pf-fr1001-001', refContrat: 'PREV-2026-0042', codePopulation: 'CADRES', codeOption: 'BASE', affiliatedContractIds: ['ctr_fr1001_001'], modeCalculCotisation: '1', baseDeCotisation: '6' },
    { idContrat: 'pf-fr1001-002', refContrat: null, codePopulation: 'TOUS', codeOption: null, affiliatedContractIds: ['ctr_fr1001_002', 'ctr_fr1001_003', 'ctr_fr1001_004', 'ctr_fr1001_005'], modeCalculCotisation: '2', baseDeCotisation: '5' },
    { idContrat: 'pf-fr1001-003', refContrat: null, codePopulation: null, codeOption: null, affiliatedContractIds: [], modeCalculCotisation: null, baseDeCotisation: null },
  ],
  FR1002: [],
};

/** Seeded months, the same for every company; any other valid month is not_completed. */
const SEEDED_MONTHS = [
  { month: '202607', status: 'completed' },
  { month: '202608', status: 'completed' },
  { month: '202609', status: 'completed' },
  { month: '202610', status: 'completed' },
  { month: '202611', status: 'not_completed' },
  { month: '202612', status: 'not_completed' },
];

/** e.g. FR1001, 202610 -> 2026-10-28T17:42:05.000Z (each company closes at its own hour). */
function seededExecutionEndDate(company, month) {
  const hour = String(company.executionHourUtc).padStart(2, '0');
  return `${month.slice(0, 4)}-${month.slice(4, 6)}-28T${hour}:42:05.000Z`;
}

function findCompany(companyId) {
  const seeded = COMPANIES.find((company) => company.id === companyId);
  if (seeded) return seeded;
  const generated = generatedCompany(companyId);
  return generated ? generated.company : null;
}

/** A part of a generated company (`contracts`, `documents`...), or [] for any other id. */
function generatedPart(companyId, part) {
  const generated = generatedCompany(companyId);
  return generated ? generated[part] : [];
}

function contractsOf(companyId) {
  return CONTRACTS[companyId] || generatedPart(companyId, 'contracts');
}

function activeContractsOf(companyId) {
  return contractsOf(companyId).filter((contract) => contract.active);
}

function findContract(companyId, contractId) {
  return contractsOf(companyId).find((contract) => contract.contractId === contractId) || null;
}

/** The company whose income-tax listing the `listedDocuments` knob sizes. */
const LISTED_DOCUMENTS_COMPANY = 'GB3001';

/**
 * Income-tax document number `index` (0, 1, ...) beyond the seed: a P60 or a P11D of each of GB3001's five
 * contracts in turn, one tax year further back every two rounds (2024, 2023, ...), so ids and names never
 * repeat and never meet the seeded ones (2025 and later).
 */
function syntheticIncomeTaxDocument(index) {
  const contracts = CONTRACTS[LISTED_DOCUMENTS_COMPANY];
  const contract = contracts[index % contracts.length];
  const round = Math.floor(index / contracts.length);
  const type = round % 2 === 0 ? 'P60' : 'P11D';
  const year = String(2024 - Math.floor(round / 2));
  const number = contract.contractId.slice(-3);
  const second = String(index % 60).padStart(2, '0');
  return {
    documentId: `gb3001-${type.toLowerCase()}-${year}-${number}`,
    listing: 'incomeTaxes',
    type,
    contractId: contract.contractId,
    year,
    month: type === 'P60' ? '04' : '07',
    createdAt: type === 'P60' ? `${year}-05-20T09:15:${second}.000Z` : `${year}-07-01T08:30:${second}.000Z`,
  };
}

/**
 * Documents of a company. `listedDocuments` (null = the seed) makes GB3001's income-tax listing hold
 * exactly that many: the seeded ones first, then synthetic ones (fewer than four drops the last seeded
 * ones, which then exist no more).
 */
function documentsOf(companyId, listedDocuments = null) {
  const seeded = DOCUMENTS[companyId] || generatedPart(companyId, 'documents');
  if (listedDocuments === null || listedDocuments === undefined || companyId !== LISTED_DOCUMENTS_COMPANY) return seeded;
  return sizedDocuments(listedDocuments);
}

const sizedDocuments = boundedCache((count) => {
  const seeded = DOCUMENTS[LISTED_DOCUMENTS_COMPANY];
  const incomeTaxes = seeded.filter((document) => document.listing === 'incomeTaxes');
  const kept = new Set(incomeTaxes.slice(0, count));
  const synthetic = Array.from({ length: Math.max(0, count - incomeTaxes.length) }, (_, index) => Object.freeze(syntheticIncomeTaxDocument(index)));
  return Object.freeze([...seeded.filter((document) => document.listing !== 'incomeTaxes' || kept.has(document)), ...synthetic]);
}, (count) => count, 4);

function findDocument(companyId, documentId, listedDocuments = null) {
  return documentsOf(companyId, listedDocuments).find((document) => document.documentId === documentId) || null;
}

/** Seeded payroll status of a month: `{status, executionEndDate}`. */
function seededPayrollStatus(companyId, month) {
  const company = findCompany(companyId);
  const seeded = SEEDED_MONTHS.find((entry) => entry.month === month);
  if (!company || !seeded || seeded.status !== 'completed') return { status: 'not_completed', executionEndDate: null };
  return { status: 'completed', executionEndDate: seededExecutionEndDate(company, month) };
}

/** The `company` resource: exactly the fields of the spec. */
function companyRecord(company) {
  return {
    id: company.id,
    name: company.name,
    country: company.country,
    identificationNumber: company.identificationNumber,
    address: company.address,
    city: company.city,
    postalCode: company.postalCode,
    nbActiveContracts: activeContractsOf(company.id).length,
  };
}

/** The `company-fr` resource: the company fields plus the French ones. */
function frenchCompanyRecord(company) {
  return { ...companyRecord(company), ...company.french };
}

function healthInsuranceContractsOf(companyId) {
  return HEALTH_INSURANCE_CONTRACTS[companyId] || generatedPart(companyId, 'healthInsurance');
}

function providentFundContractsOf(companyId) {
  return PROVIDENT_FUND_CONTRACTS[companyId] || generatedPart(companyId, 'providentFund');
}

/** The `generatedCompanies` knob: a whole number up to MAX_GENERATED_COMPANIES; null/undefined = none. */
function checkedGeneratedCompanies(value) {
  if (value === undefined || value === null) return 0;
  if (!(Number.isInteger(value) && value >= 0 && value <= MAX_GENERATED_COMPANIES)) {
    throw new InputError(`generatedCompanies must be a whole number from 0 to ${MAX_GENERATED_COMPANIES}`);
  }
  return value;
}

/**
 * The companies one sandbox serves: the seeded ones, then `generatedCompanies` generated ones, in that
 * order. `find` and `has` answer only for those.
 */
function companyDirectory(generatedCompanies = 0) {
  const list = Object.freeze([...COMPANIES, ...generatedCompanyIds(checkedGeneratedCompanies(generatedCompanies)).map(findCompany)]);
  const byId = new Map(list.map((company) => [company.id, company]));
  return Object.freeze({
    list,
    ids: Object.freeze(list.map((company) => company.id)),
    has: (companyId) => byId.has(companyId),
    find: (companyId) => byId.get(companyId) || null,
  });
}

module.exports = {
  COMPANIES,
  companyDirectory,
  checkedGeneratedCompanies,
  SEEDED_MONTHS,
  findCompany,
  contractsOf,
  activeContractsOf,
  findContract,
  LISTED_DOCUMENTS_COMPANY,
  documentsOf,
  findDocument,
  seededPayrollStatus,
  companyRecord,
  frenchCompanyRecord,
  healthInsuranceContractsOf,
  providentFundContractsOf,
};
