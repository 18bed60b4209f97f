import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { binaryPropertyNameField } from '../commonFields';

const properties: INodeProperties[] = [
	{
		displayName: 'Document ID',
		name: 'documentId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.documentUrl }}',
		description:
			'A documentId, or a documentUrl exactly as the document listings return it. Only documents returned by a listing can be downloaded.',
	},
	binaryPropertyNameField,
];

export const downloadDescription = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['download'] } },
	properties,
);
