import { askedBeforeAgentWrites } from '../agentGate';
import { resource } from '../resource';
import { createConnectLink } from './createConnectLink';
import { removeCompany } from './removeCompany';
import { repairCompanyList } from './repairCompanyList';

const RESOURCE = { value: 'partnerCredential', name: 'Partner Credential' };

export const partnerCredential = resource(
	RESOURCE.value,
	RESOURCE.name,
	[
		createConnectLink,
		// A removed row's token is gone: the company must consent again through a connect link.
		askedBeforeAgentWrites(removeCompany, {
			resource: RESOURCE,
			permission: {
				name: 'allowAgentToRemoveCompanies',
				displayName: 'Allow the Agent to Remove Companies',
			},
			action: "remove companies from the Partner API credential's list",
			approves: 'each removal',
			untouched: 'changed',
		}),
		repairCompanyList,
	],
	'removeCompany',
	// Only the Partner API credential has a list: no typed Company ID for the others.
	{ withoutCompanyId: ['removeCompany'] },
);
