import { resource } from '../resource';
import { downloadCsv } from './downloadCsv';
import { getEntries } from './getEntries';

export const accounting = resource(
	'accounting',
	'Accounting',
	[downloadCsv, getEntries],
	'getEntries',
);
