'use strict';
// Renders accounting entries (accounting.js) as the spec's CSV export: `;` separator, text values in double
// quotes (a quote inside doubled), empty values left empty, DD/MM/YYYY dates, amounts with a dot and two
// decimals, every line (header included) ended by "\n", UTF-8 without BOM. The header is not quoted.

const { boundedCache } = require('./deterministic');
const { accountingEntries } = require('./accounting');

const ANALYTIC_AXES = 4;

const CSV_HEADER = [
  'EcritureDate',
  'ContractID',
  ...Array.from({ length: ANALYTIC_AXES }, (_, i) => [`AxeAnalytique${i + 1}`, `SectionAnalytique${i + 1}`, `CodeAnalytique${i + 1}`]).flat(),
  'EmployeLib',
  'CompteNum',
  'CompteLib',
  'Debit',
  'Credit',
];

function text(value) {
  if (value === null || value === undefined || value === '') return '';
  return `"${String(value).replace(/"/g, '""')}"`;
}

function amount(value) {
  return value === null ? '' : value.toFixed(2);
}

/** 2026-07-31 -> "31/07/2026" (a date is written as text, like every non-amount value). */
function frenchDate(isoDate) {
  const [year, month, day] = isoDate.split('-');
  return text(`${day}/${month}/${year}`);
}

function csvLine(entry) {
  const analytic = [];
  for (let i = 0; i < ANALYTIC_AXES; i += 1) {
    const code = entry.analyticCodes[i] || { type: null, code: null, value: null };
    analytic.push(text(code.type), text(code.value), text(code.code));
  }
  return [
    frenchDate(entry.operationDate),
    text(entry.contractId),
    ...analytic,
    text(entry.employeeFullName),
    text(entry.accountId),
    text(entry.accountName),
    amount(entry.debit),
    amount(entry.credit),
  ].join(';');
}

function renderAccountingCsv(entries) {
  const lines = [CSV_HEADER.join(';'), ...entries.map(csvLine)];
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

/** The CSV export of a company-month, rendered from the same cached entries as accounting-v2. */
const accountingCsv = boundedCache(
  (companyId, month, lineCount = null) => renderAccountingCsv(accountingEntries(companyId, month, lineCount)),
  (companyId, month, lineCount = null) => `${companyId}|${month}|${lineCount}`,
);

module.exports = { CSV_HEADER, renderAccountingCsv, accountingCsv };
