import type { INodeProperties } from 'n8n-workflow';

import { binaryPropertyNameField, monthField } from '../../../shared/descriptions';

const showOnlyForDownloadCsv = { resource: ['accounting'], operation: ['downloadCsv'] };

export const downloadCsvFields: INodeProperties[] = [
	{ ...monthField, displayOptions: { show: showOnlyForDownloadCsv } },
	{ ...binaryPropertyNameField, displayOptions: { show: showOnlyForDownloadCsv } },
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: showOnlyForDownloadCsv },
		options: [
			{
				displayName: 'Parse Lines',
				name: 'parseLines',
				type: 'boolean',
				default: false,
				description:
					'Whether to also parse the file into one item per line, with ISO dates, numeric amounts and the analytic axes grouped (the file stays on the first item)',
			},
		],
	},
];
