'use strict';
// UK documents of the seed: listing items as the API returns them, and their PDF bytes.

const { findCompany, findContract, documentsOf, findDocument } = require('./seed');
const { buildPdf } = require('./pdf');
const { boundedCache } = require('./deterministic');

const TITLES = {
  P60: 'P60 End of Year Certificate',
  P45: 'P45 Details of employee leaving work',
  P11D: 'P11D Expenses and benefits',
  AutoEnrolmentLetter: 'Workplace pension auto-enrolment letter',
  Payslip: 'Payslip',
};

const FILE_PREFIXES = { AutoEnrolmentLetter: 'Auto-enrolment-letter' };

/** File name like `P60-2025-Jane-Doe.pdf`; auto-enrolment letters also carry the month. */
function documentName(companyId, document) {
  const contract = findContract(companyId, document.contractId);
  const person = contract.fullName.normalize('NFKD').replace(/[^A-Za-z0-9 -]/g, '').trim().replace(/\s+/g, '-');
  const period = document.type === 'P60' || document.type === 'P11D' ? document.year : `${document.year}-${document.month}`;
  return `${FILE_PREFIXES[document.type] || document.type}-${period}-${person}.pdf`;
}

/** Relative API path (under the API base URL), the shape of the spec's sample documentUrl. */
function documentUrl(companyId, document) {
  return `/companies/${companyId}/contracts/${document.contractId}/documents/${document.documentId}`;
}

/** Listing item; `type` only for income-tax documents, `name` is the sample's extra field. */
function documentListItem(companyId, document) {
  const item = { documentId: document.documentId, createdAt: document.createdAt, contractId: document.contractId };
  if (document.listing === 'incomeTaxes') item.type = document.type;
  Object.assign(item, {
    year: document.year,
    month: document.month,
    name: documentName(companyId, document),
    documentUrl: documentUrl(companyId, document),
  });
  return item;
}

/**
 * Documents returned by one listing: 'incomeTaxes' or 'autoEnrolment'. `count` is the `listedDocuments`
 * knob (null = the seed), the size of GB3001's income-tax listing.
 */
function listedDocuments(companyId, listing, count = null) {
  return documentsOf(companyId, count).filter((document) => document.listing === listing);
}

/** PDF bytes of a document, or null; `count` as for listedDocuments (a synthetic document exists only with it). */
const documentPdf = boundedCache(
  (companyId, documentId, count = null) => {
    const company = findCompany(companyId);
    const document = findDocument(companyId, documentId, count);
    if (!company || !document) return null;
    const contract = findContract(companyId, document.contractId);
    return buildPdf({
      title: TITLES[document.type],
      createdAt: document.createdAt,
      lines: [
        `Employer: ${company.name} (${company.identificationNumber})`,
        `Employee: ${contract.fullName}`,
        `Contract: ${contract.contractId}`,
        `Period: ${document.year}-${document.month}`,
        `Document id: ${document.documentId}`,
        `Created at: ${document.createdAt}`,
        'Sandbox document (not a real tax form).',
      ],
    });
  },
  (companyId, documentId, count = null) => `${companyId}|${documentId}|${count}`,
  32,
);

module.exports = { documentName, documentListItem, listedDocuments, documentPdf };
