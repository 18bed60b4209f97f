import type { INodeProperties } from 'n8n-workflow';

import { binaryPropertyNameField, monthField } from '../../../shared/descriptions';

const showOnlyForDownloadPaymentFile = {
	resource: ['payroll'],
	operation: ['downloadPaymentFile'],
};

export const downloadPaymentFileFields: INodeProperties[] = [
	{ ...monthField, displayOptions: { show: showOnlyForDownloadPaymentFile } },
	{ ...binaryPropertyNameField, displayOptions: { show: showOnlyForDownloadPaymentFile } },
];
