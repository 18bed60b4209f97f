import type { INodeProperties } from 'n8n-workflow';

import { monthField } from '../../../shared/descriptions';

const showOnlyForGetStatus = { resource: ['payroll'], operation: ['getStatus'] };

export const getStatusFields: INodeProperties[] = [
	{ ...monthField, displayOptions: { show: showOnlyForGetStatus } },
];
