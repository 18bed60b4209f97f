import {
	accountingEntriesFromCsv,
	parseSemicolonCsv,
} from '../../../../../nodes/PartnerPayroll/resources/accounting/csv';

const HEADER =
	'EcritureDate;ContractID;AxeAnalytique1;SectionAnalytique1;CodeAnalytique1;AxeAnalytique2;SectionAnalytique2;CodeAnalytique2;AxeAnalytique3;SectionAnalytique3;CodeAnalytique3;AxeAnalytique4;SectionAnalytique4;CodeAnalytique4;EmployeLib;CompteNum;CompteLib;Debit;Credit';

describe('parseSemicolonCsv', () => {
	it('keeps separators, doubled quotes and line breaks inside quoted values', () => {
		expect(parseSemicolonCsv('"a;b";"say ""hi""";;"two\nlines"\r\nx;y\n')).toEqual([
			['a;b', 'say "hi"', '', 'two\nlines'],
			['x', 'y'],
		]);
	});
});

describe('accountingEntriesFromCsv', () => {
	const csv = [
		HEADER,
		'31/10/2026;"ctr_1";"Équipe";"Boutique; comptoir";"VENTE";"Site";"Lyon 2e ""Presqu\'île""";"LYO2";;;;;;;"Zoé Lefèvre";"421000";"Rémunérations dues";;2140.50',
		'31/10/2026;;;;;;;;;;;;;;;"641100";"Salaires";2850.00;',
		'',
	].join('\n');

	it('types dates, amounts and empty values, and groups the analytic axes', () => {
		const [first, second] = accountingEntriesFromCsv(`\uFEFF${csv}`);
		expect(first).toEqual({
			operationDate: '2026-10-31',
			analyticCodes: [
				{ type: 'Équipe', code: 'VENTE', value: 'Boutique; comptoir' },
				{ type: 'Site', code: 'LYO2', value: 'Lyon 2e "Presqu\'île"' },
			],
			employeeFullName: 'Zoé Lefèvre',
			contractId: 'ctr_1',
			accountId: '421000',
			accountName: 'Rémunérations dues',
			debit: null,
			credit: 2140.5,
		});
		expect(second).toMatchObject({
			contractId: null,
			employeeFullName: null,
			analyticCodes: [],
			debit: 2850,
			credit: null,
		});
	});

	it('gives nothing for a header-only file', () => {
		expect(accountingEntriesFromCsv(`${HEADER}\n`)).toEqual([]);
	});
});
