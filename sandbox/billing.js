'use strict';
// Validation of the billing declaration body (POST_partner_declarations). Every problem is reported with
// the field it concerns; the first one becomes `details`, all of them `errors`.

const { isValidMonth, MONTH_FORMAT_TEXT } = require('./months');

// Exactly one of the two lists; employeesByProducts is the deprecated form.
const PRODUCT_LISTS = {
  quantityByProducts: {
    amountField: 'quantity',
    check: (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0,
    expected: 'a number greater than or equal to 0',
  },
  employeesByProducts: {
    amountField: 'numberOfEmployees',
    check: (value) => Number.isInteger(value) && value >= 0,
    expected: 'an integer greater than or equal to 0',
  },
};

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function checkProductList(listName, items, problems) {
  const { amountField, check, expected } = PRODUCT_LISTS[listName];
  if (!Array.isArray(items) || items.length === 0) {
    problems.push({ field: listName, message: `${listName} must be a non-empty array of {productName, ${amountField}}` });
    return null;
  }
  const cleaned = [];
  items.forEach((item, index) => {
    const where = `${listName}[${index}]`;
    if (!isPlainObject(item)) {
      problems.push({ field: where, message: `${where} must be an object {productName, ${amountField}}` });
      return;
    }
    if (typeof item.productName !== 'string' || item.productName.trim() === '') {
      problems.push({ field: `${where}.productName`, message: `${where}.productName is required and must be a non-empty string` });
    }
    if (item[amountField] === undefined) {
      problems.push({ field: `${where}.${amountField}`, message: `${where}.${amountField} is required (${expected})` });
    } else if (!check(item[amountField])) {
      problems.push({ field: `${where}.${amountField}`, message: `${where}.${amountField} must be ${expected}` });
    }
    cleaned.push({ productName: item.productName, [amountField]: item[amountField] });
  });
  return cleaned;
}

/** Returns `{problems: [{field, message}], declaration}`; declaration keeps only the known fields. */
function validateBillingDeclaration(body) {
  const problems = [];
  if (!isPlainObject(body)) {
    return { problems: [{ field: 'body', message: 'The body must be a JSON object' }], declaration: null };
  }
  if (body.monthOfApplication === undefined) {
    problems.push({ field: 'monthOfApplication', message: `monthOfApplication is required, format ${MONTH_FORMAT_TEXT}` });
  } else if (!isValidMonth(body.monthOfApplication)) {
    problems.push({ field: 'monthOfApplication', message: `monthOfApplication must be a string in format ${MONTH_FORMAT_TEXT}` });
  }
  const sent = Object.keys(PRODUCT_LISTS).filter((name) => body[name] !== undefined);
  let listName = null;
  let items = null;
  if (sent.length === 0) {
    problems.push({ field: 'quantityByProducts', message: 'quantityByProducts is required (or the deprecated employeesByProducts)' });
  } else if (sent.length > 1) {
    problems.push({ field: 'quantityByProducts', message: 'Send quantityByProducts or the deprecated employeesByProducts, not both' });
  } else {
    [listName] = sent;
    items = checkProductList(listName, body[listName], problems);
  }
  const declaration = problems.length ? null : { monthOfApplication: body.monthOfApplication, [listName]: items };
  return { problems, declaration };
}

module.exports = { validateBillingDeclaration };
