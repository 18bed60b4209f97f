import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

export const authenticationField: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'Access Token', value: 'accessToken' },
		{ name: 'OAuth2', value: 'oAuth2' },
	],
	default: 'oAuth2',
};

/** The node's Authentication: the per-company credentials, and one credential for a partner's many companies. */
export const nodeAuthenticationField: INodeProperties = {
	...authenticationField,
	options: [
		...(authenticationField.options ?? []),
		{ name: 'Partner API (Many Companies)', value: 'partnerApi' },
	],
};

type CredentialChoice = Omit<INodeCredentialDescription, 'name'>;

// The credential each value of `authentication` selects (see readConnection). Each node lists
// them with their names and `testedBy` written out: n8n's lint reads those from the node file.
export const ACCESS_TOKEN_CHOICE: CredentialChoice = {
	required: true,
	displayOptions: { show: { authentication: ['accessToken'] } },
};

export const OAUTH2_CHOICE: CredentialChoice = {
	required: true,
	displayOptions: { show: { authentication: ['oAuth2'] } },
};

export const PARTNER_CHOICE: CredentialChoice = {
	required: true,
	displayOptions: { show: { authentication: ['partnerApi'] } },
};

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
