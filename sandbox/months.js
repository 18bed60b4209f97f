'use strict';
// The YYYYMM month format shared by the `date` query parameter and `monthOfApplication`.

/** Four digits starting with 2, then month 01 to 12 (spec, Endpoints and Limits). */
const MONTH_PATTERN = /^2\d{3}(0[1-9]|1[0-2])$/;
const MONTH_FORMAT_TEXT = 'YYYYMM (four digits starting with 2, then month 01 to 12), e.g. 202607';

function isValidMonth(value) {
  return typeof value === 'string' && MONTH_PATTERN.test(value);
}

function monthParts(month) {
  return { year: Number(month.slice(0, 4)), month: Number(month.slice(4, 6)) };
}

/** Last day of the month as YYYY-MM-DD. */
function lastDayOfMonth(month) {
  const { year, month: m } = monthParts(month);
  const day = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return `${month.slice(0, 4)}-${month.slice(4, 6)}-${String(day).padStart(2, '0')}`;
}

const FRENCH_MONTH_NAMES = [
  'janvier', 'février', 'mars', 'avril', 'mai', 'juin',
  'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre',
];

function frenchMonthLabel(month) {
  const { year, month: m } = monthParts(month);
  return `${FRENCH_MONTH_NAMES[m - 1]} ${year}`;
}

module.exports = { isValidMonth, monthParts, lastDayOfMonth, frenchMonthLabel, MONTH_FORMAT_TEXT };
