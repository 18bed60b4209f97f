import { resource } from '../resource';
import { downloadPaymentFile } from './downloadPaymentFile';
import { getStatus } from './getStatus';

export const payroll = resource(
	'payroll',
	'Payroll',
	[downloadPaymentFile, getStatus],
	'getStatus',
);
