import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { binaryPropertyNameField, monthField, optionsField } from '../commonFields';

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

export const downloadCsvDescription = updateDisplayOptions(
	{ show: { resource: ['accounting'], operation: ['downloadCsv'] } },
	properties,
);
