import type { INodeProperties } from 'n8n-workflow';

import { monthField } from '../../../shared/descriptions';

const showOnlyForGetEntries = { resource: ['accounting'], operation: ['getEntries'] };

export const getEntriesFields: INodeProperties[] = [
	{ ...monthField, displayOptions: { show: showOnlyForGetEntries } },
];
