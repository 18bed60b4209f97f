import type { INodeProperties } from 'n8n-workflow';

import { binaryPropertyNameField } from '../../../shared/descriptions';

const showOnlyForDownload = { resource: ['document'], operation: ['download'] };

export const downloadFields: INodeProperties[] = [
	{
		displayName: 'Document ID',
		name: 'documentId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.documentUrl }}',
		description:
			'A documentId, or a documentUrl exactly as the document listings return it. Only documents returned by a listing can be downloaded.',
		displayOptions: { show: showOnlyForDownload },
	},
	{ ...binaryPropertyNameField, displayOptions: { show: showOnlyForDownload } },
];
