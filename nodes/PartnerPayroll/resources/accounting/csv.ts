import type { IDataObject } from 'n8n-workflow';

/** Splits `;`-separated text with `"` quoting (a doubled `""` is a quote) into rows of cells. */
export function parseSemicolonCsv(text: string): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let cell = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (quoted) {
			if (char === '"' && text[i + 1] === '"') {
				cell += '"';
				i++;
			} else if (char === '"') {
				quoted = false;
			} else {
				cell += char;
			}
		} else if (char === '"') {
			quoted = true;
		} else if (char === ';') {
			row.push(cell);
			cell = '';
		} else if (char === '\n' || char === '\r') {
			if (char === '\r' && text[i + 1] === '\n') i++;
			row.push(cell);
			rows.push(row);
			row = [];
			cell = '';
		} else {
			cell += char;
		}
	}
	if (cell !== '' || row.length) {
		row.push(cell);
		rows.push(row);
	}
	return rows;
}

const nullIfEmpty = (value: string | undefined) =>
	value === undefined || value === '' ? null : value;

function isoDate(ddmmyyyy: string): string | null {
	const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(ddmmyyyy);
	return match ? `${match[3]}-${match[2]}-${match[1]}` : nullIfEmpty(ddmmyyyy);
}

function amount(value: string): number | null {
	return value === '' ? null : Number(value);
}

/**
 * Turns the accounting export (spec column layout) into entries shaped like accounting-v2, so a
 * workflow reads the same fields from both operations. Columns are found by header name.
 */
export function accountingEntriesFromCsv(csv: string): IDataObject[] {
	const [header, ...lines] = parseSemicolonCsv(csv.replace(/^\uFEFF/, ''));
	if (!header) return [];
	const column = (name: string) => header.indexOf(name);
	return lines
		.filter((cells) => cells.some((cell) => cell !== ''))
		.map((cells) => {
			const cellOf = (name: string) => cells[column(name)] ?? '';
			const analyticCodes = [1, 2, 3, 4]
				.map((axis) => ({
					type: nullIfEmpty(cellOf(`AxeAnalytique${axis}`)),
					code: nullIfEmpty(cellOf(`CodeAnalytique${axis}`)),
					value: nullIfEmpty(cellOf(`SectionAnalytique${axis}`)),
				}))
				.filter(
					(analytic) => analytic.type !== null || analytic.code !== null || analytic.value !== null,
				);
			return {
				operationDate: isoDate(cellOf('EcritureDate')),
				analyticCodes,
				employeeFullName: nullIfEmpty(cellOf('EmployeLib')),
				contractId: nullIfEmpty(cellOf('ContractID')),
				accountId: cellOf('CompteNum'),
				accountName: cellOf('CompteLib'),
				debit: amount(cellOf('Debit')),
				credit: amount(cellOf('Credit')),
			};
		});
}
