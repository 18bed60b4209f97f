import type { ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

import { apiBaseUrlField, authServerUrlField } from './common';
import { ALL_SCOPES, scopesField } from './scopes';

// A trailing slash typed by the user must not double the one before "authorize"/"token".
const AUTH_SERVER =
	'{{$self["authServerUrl"].endsWith("/") ? $self["authServerUrl"].slice(0, -1) : $self["authServerUrl"]}}';

// n8n quirk Q14: docs/n8n-quirks.md
/**
 * The `scope` sent at Connect: the selected scopes, all of them when none is selected. n8n 2.40's
 * editor shows a new credential's Scopes empty whatever the default: an empty selection must not
 * get a token without scopes that fails only at the first run.
 */
export const SCOPE_EXPRESSION = `={{($self["scopes"] || []).length ? $self["scopes"].join(" ") : ${JSON.stringify(ALL_SCOPES.join(' '))}}}`;

export class PartnerPayrollOAuth2Api implements ICredentialType {
	name = 'partnerPayrollOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'Partner Payroll OAuth2 API';

	icon: Icon = {
		light: 'file:../icons/partnerPayroll.svg',
		dark: 'file:../icons/partnerPayroll.dark.svg',
	};

	documentationUrl = 'https://github.com/partner-payroll/n8n-nodes-partner-payroll#credentials';

	// Tested by the nodes (`testedBy: 'partnerPayrollTokenTest'`): the Test names the company of the
	// token and fails naming the requested scopes the token lacks.
	properties: INodeProperties[] = [
		apiBaseUrlField,
		{
			...authServerUrlField,
			description:
				'Address of the authorization server; /authorize, /token and /introspect are below it',
		},
		{
			...scopesField,
			description:
				'Scopes to request at Connect. Empty requests all five. Select only scopes registered for your application: the authorization server refuses any other, and Connect then fails. After a change, reconnect.',
		},
		{ displayName: 'Grant Type', name: 'grantType', type: 'hidden', default: 'authorizationCode' },
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'hidden',
			default: `=${AUTH_SERVER}/authorize`,
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: `=${AUTH_SERVER}/token`,
		},
		{ displayName: 'Scope', name: 'scope', type: 'hidden', default: SCOPE_EXPRESSION },
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: '',
		},
		// The spec sends client id and secret in the token request body.
		{ displayName: 'Authentication', name: 'authentication', type: 'hidden', default: 'body' },
	];
}
