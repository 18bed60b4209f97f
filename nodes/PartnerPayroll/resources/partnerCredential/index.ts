import { resource } from '../resource';
import { createConnectLink } from './createConnectLink';
import { removeCompany } from './removeCompany';
import { repairCompanyList } from './repairCompanyList';

export const partnerCredential = resource(
	'partnerCredential',
	'Partner Credential',
	[createConnectLink, removeCompany, repairCompanyList],
	'removeCompany',
	// Only the Partner API credential has a list: no typed Company ID for the others.
	{ withoutCompanyId: ['removeCompany'] },
);
