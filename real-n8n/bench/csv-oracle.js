'use strict';
// The oracle of Parse Lines: `csv-parse` reads the same bytes, and a mapping written here from the
// spec's column layout (not taken from the node) gives the items the node must produce, shaped like
// accounting-v2 entries.
const { isDeepStrictEqual } = require('node:util');
const { parse } = require('csv-parse/sync');

const emptyToNull = (value) => (value === undefined || value === '' ? null : value);

/** EcritureDate is DD/MM/YYYY; entries carry ISO dates. */
function isoDate(value) {
	const parts = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value ?? '');
	return parts ? `${parts[3]}-${parts[2]}-${parts[1]}` : emptyToNull(value);
}

const amountOf = (value) => (value === undefined || value === '' ? null : Number(value));

function itemOf(record) {
	const analyticCodes = [];
	for (const axis of [1, 2, 3, 4]) {
		const type = emptyToNull(record[`AxeAnalytique${axis}`]);
		const code = emptyToNull(record[`CodeAnalytique${axis}`]);
		const value = emptyToNull(record[`SectionAnalytique${axis}`]);
		if (type !== null || code !== null || value !== null) analyticCodes.push({ type, code, value });
	}
	return {
		operationDate: isoDate(record.EcritureDate),
		analyticCodes,
		employeeFullName: emptyToNull(record.EmployeLib),
		contractId: emptyToNull(record.ContractID),
		accountId: record.CompteNum ?? '',
		accountName: record.CompteLib ?? '',
		debit: amountOf(record.Debit),
		credit: amountOf(record.Credit),
	};
}

/** csv-parse, then the mapping; resolves the items and the time of each step. */
function oracleItems(bytes) {
	const started = performance.now();
	const records = parse(bytes, { delimiter: ';', columns: true, bom: true, skip_empty_lines: true });
	const parsed = performance.now();
	const items = records.map(itemOf);
	const mapped = performance.now();
	return { items, parseMs: parsed - started, totalMs: mapped - started };
}

/** Whether the node's items (json parts) are exactly the oracle's; the first difference otherwise. */
function compareItems(nodeItems, expected) {
	if (nodeItems.length !== expected.length) {
		return { identical: false, difference: `${nodeItems.length} items instead of ${expected.length}` };
	}
	for (let index = 0; index < expected.length; index += 1) {
		if (!isDeepStrictEqual(nodeItems[index].json, expected[index])) {
			return {
				identical: false,
				difference: `item ${index}: ${JSON.stringify(nodeItems[index].json)} instead of ${JSON.stringify(expected[index])}`,
			};
		}
	}
	return { identical: true };
}

module.exports = { oracleItems, compareItems };
