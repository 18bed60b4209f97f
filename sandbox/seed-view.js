'use strict';
// Read-only view of the seed for code that drives the sandbox (tests, demos): the data and the exact bytes
// the API serves, computed with the current size knobs. Values are copies; changing them changes nothing.

const seed = require('./seed');
const { documentListItem, documentPdf } = require('./documents');
const { accountingEntries } = require('./accounting');
const { accountingCsv } = require('./csv');
const { paymentFile } = require('./payment-file');

function deepFreeze(value) {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

const frozenCopy = (value) => deepFreeze(structuredClone(value));

function createSeedView({ knobs, clients }) {
  const companies = frozenCopy(seed.COMPANIES.map((company) => ({
    ...seed.companyRecord(company),
    ...(company.french ? { french: company.french } : {}),
    contracts: seed.contractsOf(company.id).map(({ contractId, fullName, active }) => ({ contractId, fullName, active })),
  })));

  return Object.freeze({
    companies,
    companyIds: frozenCopy(seed.COMPANIES.map((company) => company.id)),
    months: frozenCopy(seed.SEEDED_MONTHS),
    completedMonths: frozenCopy(seed.SEEDED_MONTHS.filter((entry) => entry.status === 'completed').map((entry) => entry.month)),
    clients: clients.list,
    defaultClientId: clients.defaultClientId,
    company: (companyId) => companies.find((company) => company.id === companyId) || null,
    /** Seeded status, before any change through the control endpoint. */
    payrollStatus: (companyId, month) => frozenCopy(seed.seededPayrollStatus(companyId, month)),
    /**
     * All documents of a company with their listing ('incomeTaxes', 'autoEnrolment' or null = never listed),
     * GB3001's income-tax ones as many as the `listedDocuments` knob says.
     */
    documents: (companyId) => frozenCopy(seed.documentsOf(companyId, knobs.listedDocuments).map((document) => ({
      ...documentListItem(companyId, document),
      type: document.type,
      listing: document.listing,
    }))),
    healthInsuranceContracts: (companyId) => frozenCopy(seed.healthInsuranceContractsOf(companyId)),
    providentFundContracts: (companyId) => frozenCopy(seed.providentFundContractsOf(companyId)),
    paymentFile: (companyId, month) => Buffer.from(paymentFile(companyId, month, knobs.paymentFileBytes)),
    accountingEntries: (companyId, month) => frozenCopy(accountingEntries(companyId, month, knobs.accountingLines)),
    accountingCsv: (companyId, month) => Buffer.from(accountingCsv(companyId, month, knobs.accountingLines)),
    document: (companyId, documentId) => {
      const pdf = documentPdf(companyId, documentId, knobs.listedDocuments);
      return pdf ? Buffer.from(pdf) : null;
    },
  });
}

module.exports = { createSeedView };
