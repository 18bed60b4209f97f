import { updateDisplayOptions } from 'n8n-workflow';

import type { Operation } from '../resource';
import { monthField } from '../../../shared/month';
import { binaryPropertyNameField } from '../../../shared/binary';
import { downloadMonthFile, type MonthFileKind } from '../monthFile';

const PAYMENT_FILE: MonthFileKind = {
	path: '/payment-files',
	namePrefix: 'payment-file',
	extension: '', // the payment file format is not documented
	mimeType: 'application/octet-stream',
	errorContext: {},
};

/** GET /companies/{companyId}/payment-files?date=YYYYMM: the file, streamed into n8n's binary store. */
export const downloadPaymentFile: Operation = {
	option: {
		name: 'Download Payment File',
		value: 'downloadPaymentFile',
		action: 'Download a payment file',
		description:
			'Download the payment file (bank transfers) of a month as a binary file. It holds bank details: store it with care.',
	},
	fields: updateDisplayOptions(
		{ show: { resource: ['payroll'], operation: ['downloadPaymentFile'] } },
		[monthField, binaryPropertyNameField],
	),
	async execute(itemIndex, connection) {
		const { file } = await downloadMonthFile(this, itemIndex, connection, PAYMENT_FILE);
		return [file];
	},
};
