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

export const companyIdField: INodeProperties = {
	displayName: 'Company ID',
	name: 'companyId',
	type: 'string',
	default: '',
	placeholder: 'Leave empty for the company of the token',
	description:
		'ID of the company to read. Leave empty to use the company the token was issued for (found once per execution through the authorization server).',
};
