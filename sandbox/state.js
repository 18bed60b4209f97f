'use strict';
// Mutable per-company state on top of the seed: payroll statuses switched by control, billing declarations
// received, documents already returned by a listing (spec rule 2). reset() returns to the seed.

const { InputError } = require('./errors');
const { isValidMonth, MONTH_FORMAT_TEXT } = require('./months');
const { seededPayrollStatus, findCompany } = require('./seed');

const PAYROLL_STATUSES = ['completed', 'not_completed'];

function createCompanyState({ now = () => new Date() } = {}) {
  const statusOverrides = new Map();
  const declarations = [];
  const listedDocuments = new Set();

  function payrollStatus(companyId, month) {
    return statusOverrides.get(`${companyId}|${month}`) || seededPayrollStatus(companyId, month);
  }

  /** Control: `completed` without a date gets "now"; `not_completed` always pairs with a null date. */
  function setPayrollStatus({ companyId, month, status, executionEndDate } = {}) {
    if (!findCompany(companyId)) throw new InputError(`Unknown companyId "${companyId}"`, 404);
    if (!isValidMonth(month)) throw new InputError(`month must be ${MONTH_FORMAT_TEXT}`);
    if (!PAYROLL_STATUSES.includes(status)) throw new InputError(`status must be one of ${PAYROLL_STATUSES.join(', ')}`);
    let endDate = null;
    if (status === 'completed') {
      if (executionEndDate === undefined || executionEndDate === null) endDate = now().toISOString();
      else if (typeof executionEndDate === 'string' && !Number.isNaN(Date.parse(executionEndDate)) && /T/.test(executionEndDate)) endDate = executionEndDate;
      else throw new InputError('executionEndDate must be an ISO 8601 date-time, e.g. 2026-10-28T17:42:05.000Z');
    } else if (executionEndDate !== undefined && executionEndDate !== null) {
      throw new InputError('executionEndDate must be null when status is not_completed (spec: States)');
    }
    const value = Object.freeze({ status, executionEndDate: endDate });
    statusOverrides.set(`${companyId}|${month}`, value);
    return { companyId, month, ...value };
  }

  function addDeclaration(declaration) {
    declarations.push(Object.freeze({ ...declaration, receivedAt: now().toISOString() }));
  }

  function declarationsOf(companyId) {
    return declarations.filter((declaration) => !companyId || declaration.companyId === companyId);
  }

  function markListed(companyId, documentIds) {
    for (const documentId of documentIds) listedDocuments.add(`${companyId}|${documentId}`);
  }

  function wasListed(companyId, documentId) {
    return listedDocuments.has(`${companyId}|${documentId}`);
  }

  function reset() {
    statusOverrides.clear();
    declarations.length = 0;
    listedDocuments.clear();
  }

  return { payrollStatus, setPayrollStatus, addDeclaration, declarationsOf, markListed, wasListed, reset };
}

module.exports = { createCompanyState, PAYROLL_STATUSES };
