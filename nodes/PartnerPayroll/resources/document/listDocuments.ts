import type { INodeProperties } from 'n8n-workflow';

const showOnlyForListings = {
	resource: ['document'],
	operation: ['getIncomeTaxDocuments', 'getAutoEnrolmentDocuments'],
};

export const listDocumentsFields: INodeProperties[] = [
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: showOnlyForListings },
		options: [
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
		],
	},
];
