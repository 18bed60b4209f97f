import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { monthField } from '../commonFields';

const properties: INodeProperties[] = [monthField];

export const getStatusDescription = updateDisplayOptions(
	{ show: { resource: ['payroll'], operation: ['getStatus'] } },
	properties,
);
