'use strict';
// Monthly pay figures per employee contract: the single data source behind the accounting exports (CSV and
// v2 JSON) and the payment files, so those always agree with each other.

const { activeContractsOf } = require('./seed');
const { seededRandom } = require('./deterministic');

const EMPLOYEE_CONTRIBUTION_RATE = 0.22;
const EMPLOYER_CONTRIBUTION_RATE = 0.42;

/** Amounts in cents of one contract for one month (a deterministic bonus varies them per month). */
function payFigures(companyId, month, contract) {
  const random = seededRandom(`${companyId}:${month}:${contract.contractId}`);
  const grossCents = contract.grossCents + Math.round(random() * 20000);
  const employeeContributionCents = Math.round(grossCents * EMPLOYEE_CONTRIBUTION_RATE);
  const employerContributionCents = Math.round(grossCents * EMPLOYER_CONTRIBUTION_RATE);
  return {
    contract,
    grossCents,
    employeeContributionCents,
    employerContributionCents,
    netCents: grossCents - employeeContributionCents,
  };
}

/** Made-up extra employees used only when the `accountingLines` knob asks for more lines than the seed has. */
function syntheticContract(companyId, index, seeded) {
  const template = seeded[index % seeded.length];
  return {
    contractId: `ctr_${companyId.toLowerCase()}_s${String(index).padStart(5, '0')}`,
    fullName: `Salarié synthétique n°${index}`,
    active: true,
    grossCents: 180000 + ((index * 7919) % 150000),
    analyticCodes: template ? template.analyticCodes : [],
  };
}

/** Active contracts, then as many synthetic ones as the caller keeps asking for. */
function* contractsForPayroll(companyId, { synthetic = false } = {}) {
  const seeded = activeContractsOf(companyId);
  yield* seeded;
  if (!synthetic) return;
  for (let index = seeded.length + 1; ; index += 1) yield syntheticContract(companyId, index, seeded);
}

/** Pay figures of the seeded active contracts of a company for a month. */
function monthlyPay(companyId, month) {
  return [...contractsForPayroll(companyId)].map((contract) => payFigures(companyId, month, contract));
}

module.exports = { payFigures, contractsForPayroll, monthlyPay };
