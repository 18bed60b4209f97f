import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { optionsField } from '../commonFields';

// The fields of both listings: Get Income Tax Documents and Get Auto-Enrolment Documents.

const properties: INodeProperties[] = [
	optionsField([
		{
			displayName: 'Download Files',
			name: 'downloadFiles',
			type: 'boolean',
			default: false,
			description: 'Whether to download each listed PDF into its item as a binary file',
		},
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			hint: 'The name of the output binary field to put each PDF in (with Download Files)',
		},
	]),
];

export const listingsDescription = updateDisplayOptions(
	{
		show: {
			resource: ['document'],
			operation: ['getIncomeTaxDocuments', 'getAutoEnrolmentDocuments'],
		},
	},
	properties,
);
