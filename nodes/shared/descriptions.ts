import type { INodeProperties } from 'n8n-workflow';

// The company fields of the node and the trigger.

/** With the Partner API credential, the company is one of the credential's list (or an expression). */
export const partnerCompanyField: INodeProperties = {
	displayName: 'Company Name or ID',
	name: 'companyId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'listPartnerCompanies' },
	required: true,
	default: '',
	description:
		'A company of the credential\'s list. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const companyIdField: INodeProperties = {
	displayName: 'Company ID',
	name: 'companyId',
	type: 'string',
	default: '',
	placeholder: 'Leave empty for the company of the token',
	description:
		'ID of the company to read. Leave empty to use the company the token was issued for (found once per execution through the authorization server).',
};
