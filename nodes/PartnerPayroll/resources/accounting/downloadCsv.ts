import { updateDisplayOptions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import { optionsField, type Operation } from '../resource';
import { monthField } from '../../../shared/month';
import { binaryPropertyNameField } from '../../../shared/binary';
import { downloadMonthFile, type MonthFileKind } from '../monthFile';
import { accountingEntriesFromCsv } from './csv';

const properties: INodeProperties[] = [
	monthField,
	binaryPropertyNameField,
	optionsField([
		{
			displayName: 'Parse Lines',
			name: 'parseLines',
			type: 'boolean',
			default: false,
			description:
				'Whether to also parse the file into one item per line, with ISO dates, numeric amounts and the analytic axes grouped (the file stays on the first item)',
		},
	]),
];

const ACCOUNTING_CSV: MonthFileKind = {
	path: '/accounting',
	namePrefix: 'accounting',
	extension: '.csv',
	mimeType: 'text/csv',
	errorContext: { country: 'FR' },
};

/**
 * GET /companies/{companyId}/accounting?date=YYYYMM: the CSV file (French companies); with Parse
 * Lines also one item per line, the file riding on the first one so it can still be mailed or stored.
 */
export const downloadCsv: Operation = {
	option: {
		name: 'Download CSV',
		value: 'downloadCsv',
		action: 'Download an accounting CSV file',
		description:
			'Download the accounting export of a month as a CSV file (French companies), optionally parsed into one item per line',
	},
	fields: updateDisplayOptions(
		{ show: { resource: ['accounting'], operation: ['downloadCsv'] } },
		properties,
	),
	async execute(itemIndex, connection) {
		const parseLines = this.getNodeParameter('options.parseLines', itemIndex, false) as boolean;
		const { file, text } = await downloadMonthFile(
			this,
			itemIndex,
			connection,
			ACCOUNTING_CSV,
			parseLines,
		);
		if (!parseLines) return [file];
		const entries = accountingEntriesFromCsv(text ?? '');
		if (!entries.length) return [file];
		return entries.map(
			(entry, index): INodeExecutionData =>
				index === 0 ? { json: entry, binary: file.binary } : { json: entry },
		);
	},
};
