import { resource } from '../resource';
import { createConnectLink } from './createConnectLink';
import { removeCompany } from './removeCompany';

export const partnerCredential = resource(
	'partnerCredential',
	'Partner Credential',
	[createConnectLink, removeCompany],
	'removeCompany',
	// Only the Partner API credential has a list: no typed Company ID for the others. A connect link
	// is for a company that may not be in the list yet: it has its own Expected Company ID.
	{
		withoutCompanyId: ['removeCompany', 'createConnectLink'],
		withoutListedCompany: ['createConnectLink'],
	},
);
