import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { binaryPropertyNameField, monthField } from '../commonFields';

const properties: INodeProperties[] = [monthField, binaryPropertyNameField];

export const downloadPaymentFileDescription = updateDisplayOptions(
	{ show: { resource: ['payroll'], operation: ['downloadPaymentFile'] } },
	properties,
);
