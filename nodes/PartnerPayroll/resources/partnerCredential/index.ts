import { resource } from '../resource';
import { removeCompany } from './removeCompany';

export const partnerCredential = resource(
	'partnerCredential',
	'Partner Credential',
	[removeCompany],
	'removeCompany',
	// Only the Partner API credential has a list: no typed Company ID for the others.
	{ withoutCompanyId: ['removeCompany'] },
);
