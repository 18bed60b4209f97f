'use strict';
// Payment file of a company-month: a CFONB-like fixed-width bank transfer file (160-character records, CRLF)
// encoded in ISO-8859-1, ending with raw control bytes. It is deliberately NOT valid UTF-8 (accented letters
// are single Latin-1 bytes), so a client that decodes it as text corrupts it. It holds (fake) IBANs, as real
// payment files hold real ones.

const { findCompany } = require('./seed');
const { monthlyPay } = require('./payroll');
const { frenchMonthLabel } = require('./months');
const { seededDigits, boundedCache } = require('./deterministic');

const RECORD_LENGTH = 160;
const TRAILING_RAW_BYTES = Buffer.from([0x1a, 0xff, 0x00, 0x9c]); // DOS EOF marker and bytes no text encoding likes

/** Latin-1 bytes; characters outside Latin-1 (Œ, ễ...) become '?', as a legacy bank format would do. */
function latin1(text) {
  return Buffer.from(text.replace(/[^\u0000-\u00ff]/g, '?'), 'latin1');
}

function field(value, length, align = 'left') {
  const text = String(value).slice(0, length);
  return align === 'right' ? text.padStart(length, '0') : text.padEnd(length, ' ');
}

function record(...fields) {
  return field(fields.join(''), RECORD_LENGTH);
}

// IBAN layout per country: the basic bank account number (BBAN) length and whether it starts with letters.
const BBAN_FORMATS = {
  FR: (seed) => seededDigits(seed, 23),
  ES: (seed) => seededDigits(seed, 20),
  GB: (seed) => `NWBK${seededDigits(seed, 14)}`,
};

/** A fake IBAN with correct ISO 13616 check digits. */
function fakeIban(country, seed) {
  const bban = BBAN_FORMATS[country](seed);
  const numeric = `${bban}${country}00`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  const check = 98n - (BigInt(numeric) % 97n);
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}

function buildBaseFile(companyId, month) {
  const company = findCompany(companyId);
  const payments = monthlyPay(companyId, month);
  const label = `Salaires ${frenchMonthLabel(month)}`;
  const executionDate = `28${month.slice(4, 6)}${month.slice(2, 4)}`; // DDMMYY
  const totalCents = payments.reduce((sum, pay) => sum + pay.netCents, 0);
  const records = [
    record('0302', '        ', 'SBX001', executionDate, field(company.name, 24), field(`Réf. paie ${month}`, 20), 'E', field(fakeIban(company.country, `${companyId}:payer`), 34)),
    ...payments.map((pay, index) => record(
      '0602', field(index + 1, 8, 'right'), 'SBX001', executionDate,
      field(pay.contract.fullName, 24), field(fakeIban(company.country, `${companyId}:${pay.contract.contractId}`), 34),
      field(pay.netCents, 16, 'right'), field(label, 31),
    )),
    record('0802', '        ', 'SBX001', executionDate, field('Total des virements', 24), field(payments.length, 8, 'right'), field(totalCents, 16, 'right')),
  ];
  return Buffer.concat([latin1(records.join('\r\n')), latin1('\r\n'), TRAILING_RAW_BYTES]);
}

/**
 * The file, padded to at least `minBytes` by repeating its own bytes (deterministic, and built with one
 * Buffer.fill so tens of megabytes take milliseconds). Cached read-only.
 */
const paymentFile = boundedCache(
  (companyId, month, minBytes = null) => {
    const base = buildBaseFile(companyId, month);
    if (!minBytes || minBytes <= base.length) return base;
    const padded = Buffer.allocUnsafe(minBytes);
    base.copy(padded);
    padded.fill(base, base.length);
    return padded;
  },
  (companyId, month, minBytes = null) => `${companyId}|${month}|${minBytes}`,
  4,
);

module.exports = { paymentFile, fakeIban };
