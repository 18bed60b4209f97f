import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { monthField } from '../commonFields';

const properties: INodeProperties[] = [monthField];

export const getEntriesDescription = updateDisplayOptions(
	{ show: { resource: ['accounting'], operation: ['getEntries'] } },
	properties,
);
