'use strict';
// Read-only view of the seed for code that drives the sandbox (tests, demos): the data and the exact bytes
// the API serves, computed with the current size knobs. Values are copies; changing them changes nothing.

const seed = require('./seed');
const { documentListItem, documentPdf } = require('./documents');
const { accountingEntries } = require('./accounting');
const { accountingCsv } = require('./csv');
const { paymentFile } = require('./payment-file');
const { deepFreeze } = require('./deterministic');

const frozenCopy = (value) => deepFreeze(structuredClone(value));

/** The companies a directory serves, as the view shows them (with their contracts). */
function companiesView(directory) {
  return frozenCopy(directory.list.map((company) => ({
    ...seed.companyRecord(company),
    ...(company.french ? { french: company.french } : {}),
    contracts: seed.contractsOf(company.id).map(({ contractId, fullName, active }) => ({ contractId, fullName, active })),
  })));
}

const SEEDED_ONLY = seed.companyDirectory();

/** `companies()`: the sandbox's current company directory (the generatedCompanies knob can change on reset). */
function createSeedView({ knobs, clients, companies: currentDirectory = () => SEEDED_ONLY }) {
  let shown = { directory: null, companies: null };
  const companies = () => {
    const directory = currentDirectory();
    if (shown.directory !== directory) shown = { directory, companies: companiesView(directory) };
    return shown.companies;
  };

  return Object.freeze({
    get companies() {
      return companies();
    },
    get companyIds() {
      return currentDirectory().ids;
    },
    months: frozenCopy(seed.SEEDED_MONTHS),
    completedMonths: frozenCopy(seed.SEEDED_MONTHS.filter((entry) => entry.status === 'completed').map((entry) => entry.month)),
    clients: clients.list,
    defaultClientId: clients.defaultClientId,
    company: (companyId) => companies().find((company) => company.id === companyId) || null,
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
