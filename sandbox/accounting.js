'use strict';
// Accounting entries of a company-month in the accounting-v2 shape. The CSV export (csv.js) is rendered
// from these very entries, so `accounting` and `accounting-v2` always carry the same data.

const { lastDayOfMonth } = require('./months');
const { payFigures, contractsForPayroll } = require('./payroll');
const { boundedCache } = require('./deterministic');

// Lines written for every employee; account names deliberately contain `;`, `"` and accents.
const EMPLOYEE_LINES = [
  { accountId: '641100', accountName: 'Salaires; primes et indemnités', side: 'debit', cents: (pay) => pay.grossCents },
  { accountId: '431100', accountName: 'Cotisations URSSAF salariales', side: 'credit', cents: (pay) => pay.employeeContributionCents },
  { accountId: '421000', accountName: 'Rémunérations dues au personnel', side: 'credit', cents: (pay) => pay.netCents },
  { accountId: '645100', accountName: 'Charges sociales "patronales"', side: 'debit', cents: (pay) => pay.employerContributionCents },
  { accountId: '431100', accountName: 'Cotisations URSSAF patronales', side: 'credit', cents: (pay) => pay.employerContributionCents },
];

// Company-level lines with no employee, contract or analytic section (1% training tax on the gross total).
const COMPANY_LINES = [
  { accountId: '633300', accountName: 'Formation professionnelle continue', side: 'debit' },
  { accountId: '447000', accountName: 'Autres impôts, taxes et versements assimilés', side: 'credit' },
];
const TRAINING_TAX_RATE = 0.01;

function entry(operationDate, contract, line, cents) {
  return {
    operationDate,
    analyticCodes: contract ? contract.analyticCodes.map(({ type, code, value }) => ({ type, code, value })) : [],
    employeeFullName: contract ? contract.fullName : null,
    contractId: contract ? contract.contractId : null,
    accountId: line.accountId,
    accountName: line.accountName,
    debit: line.side === 'debit' ? cents / 100 : null,
    credit: line.side === 'credit' ? cents / 100 : null,
  };
}

/**
 * lineCount null: the natural export of the seeded employees. A number: exactly that many lines, adding
 * synthetic employees when needed (the size knob).
 */
function buildEntries(companyId, month, lineCount) {
  const operationDate = lastDayOfMonth(month);
  const employeeLineCount = lineCount === null ? Infinity : Math.max(lineCount - COMPANY_LINES.length, 0);
  const employeeEntries = [];
  let grossTotalCents = 0;
  for (const contract of contractsForPayroll(companyId, { synthetic: lineCount !== null })) {
    if (employeeEntries.length >= employeeLineCount) break;
    const pay = payFigures(companyId, month, contract);
    grossTotalCents += pay.grossCents;
    for (const line of EMPLOYEE_LINES) employeeEntries.push(entry(operationDate, contract, line, line.cents(pay)));
  }
  const taxCents = Math.round(grossTotalCents * TRAINING_TAX_RATE);
  const companyEntries = COMPANY_LINES.map((line) => entry(operationDate, null, line, taxCents));
  const entries = [...employeeEntries.slice(0, employeeLineCount), ...companyEntries];
  return lineCount === null ? entries : entries.slice(0, lineCount);
}

/** Cached: entries are shared and must be treated as read-only. */
const accountingEntries = boundedCache(
  (companyId, month, lineCount = null) => Object.freeze(buildEntries(companyId, month, lineCount)),
  (companyId, month, lineCount = null) => `${companyId}|${month}|${lineCount}`,
);

module.exports = { accountingEntries };
