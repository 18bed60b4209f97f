import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	Icon,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { apiBaseUrlField, authServerUrlField, type RestrictableToSupportedNodes } from './common';
import { COMPANY_HINT_HEADER, CompanyRefusal } from './companyRequests';
import { lookUpCompany } from './partnerCompanies';

/**
 * Every company an API path names: the segment after each `companies` or `companies-fr`, in any case
 * (a server may not care about the case, so neither does this check).
 */
function companiesInPath(path: string): string[] {
	const segments = path.split('/');
	return segments.flatMap((segment, index) =>
		/^companies(-fr)?$/i.test(segment) && index + 1 < segments.length
			? [decodedSegment(segments[index + 1])]
			: [],
	);
}

/** A path segment as the server reads it; one that does not decode stays as it is (and names no listed company). */
function decodedSegment(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

/** The absolute address a request goes to, whether its `url` is absolute or relative to `baseURL`. */
function targetOf(requestOptions: IHttpRequestOptions): URL {
	try {
		return new URL(requestOptions.url, requestOptions.baseURL || undefined);
	} catch {
		throw new CompanyRefusal(
			`The request address "${requestOptions.url}" is not a URL; nothing was sent.`,
		);
	}
}

function originOf(address: unknown): string | undefined {
	try {
		return new URL(String(address ?? '').trim()).origin;
	} catch {
		return undefined;
	}
}

/**
 * One credential for many client companies of a partner: the partner's OAuth application (client ID and
 * secret, used by the connect link) and one access token per company. A node names the company of each
 * request; `authenticate` sends that company's token, to the credential's own two addresses only.
 */
export class PartnerPayrollPartnerApi implements ICredentialType, RestrictableToSupportedNodes {
	name = 'partnerPayrollPartnerApi';

	// n8n with n8n-core 2.25 or later (2.40.7 in the lab) then decrypts it only for the nodes that list it
	// (this package's, and the AI-tool variant n8n generates), and refuses to save a workflow in which
	// another node, such as the HTTP Request node, uses it. Older n8n (2.8.4 in the lab) ignores the field.
	// n8n quirk Q10: docs/n8n-quirks.md
	restrictToSupportedNodes = true as const;

	displayName = 'Partner Payroll Partner API';

	icon: Icon = {
		light: 'file:../icons/partnerPayroll.svg',
		dark: 'file:../icons/partnerPayroll.dark.svg',
	};

	documentationUrl =
		'https://github.com/partner-payroll/n8n-nodes-partner-payroll#partners-with-many-companies';

	properties: INodeProperties[] = [
		apiBaseUrlField,
		{
			...authServerUrlField,
			description:
				'Address of the authorization server; /authorize, /token and /introspect are below it',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			description: "Your partner application's client ID, used by the connect link",
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: "Your partner application's client secret, used by the connect link",
		},
		{
			displayName:
				'Add companies with the connect link (Partner Payroll Connect Trigger). Never delete or reorder rows here: n8n gives saved tokens back to rows by position, so the tokens would move to other companies (each token is bound to its company, so such rows stop working instead of serving the wrong company).',
			name: 'companiesNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Companies',
			name: 'companies',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			placeholder: 'Add Company',
			options: [
				{
					displayName: 'Company',
					name: 'company',
					values: [
						{
							displayName: 'Company ID',
							name: 'companyId',
							type: 'string',
							default: '',
							placeholder: 'FR1001',
						},
						{
							displayName: 'Label',
							name: 'label',
							type: 'string',
							default: '',
							description: 'A name for the company in lists and messages',
						},
						{
							displayName: 'Access Token',
							name: 'accessToken',
							type: 'string',
							typeOptions: { password: true },
							default: '',
							description:
								'The company ID, a colon and the token, for example FR1001:abc…. The connect link writes it for you.',
						},
					],
				},
			],
		},
		// n8n quirk Q17: docs/n8n-quirks.md
		// The connect link's own signing key (docs/partner-credential-security.md): written once through
		// n8n's public API, never typed. A password so that n8n's API and editor mask it and keep it on
		// save; a shown field, because n8n's public API refuses to write a hidden one.
		{
			displayName: 'Connect Link Secret',
			name: 'connectLinkSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Made by the connect link at its first use, to sign its links. Leave it as it is: emptying or changing it invalidates every connect link sent and not used yet.',
		},
	];

	// A function, not a generic header: the token depends on the request's company, which only the
	// request carries (n8n's AWS credential reads and removes a hint the same way). It trusts no
	// caller: the company must be in its list, the path must be that company's (or name none), and
	// the address must be one of its own two.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const headers = { ...(requestOptions.headers ?? {}) };
		const hintName = Object.keys(headers).find(
			(name) => name.toLowerCase() === COMPANY_HINT_HEADER,
		);
		const companyId = hintName === undefined ? '' : String(headers[hintName] ?? '').trim();
		if (hintName !== undefined) delete headers[hintName];
		if (companyId === '') {
			throw new CompanyRefusal(
				'This request names no company, so the Partner Payroll Partner API credential sends no token. Use it from the Partner Payroll nodes, with a Company.',
			);
		}
		const target = targetOf(requestOptions);
		const allowed = [originOf(credentials.baseUrl), originOf(credentials.authServerUrl)];
		if (!allowed.includes(target.origin)) {
			throw new CompanyRefusal(
				`The token of company ${companyId} goes only to the credential's API Base URL and Authorization Server URL, not to ${target.origin}; nothing was sent.`,
			);
		}
		// Path parameters (`/companies;v=1/…`) could hide a company from the check below.
		if (target.pathname.includes(';') || /%3b/i.test(target.pathname)) {
			throw new CompanyRefusal(
				`The request path "${target.pathname}" has a ";" parameter, which the API does not use; nothing was sent.`,
			);
		}
		const pathCompany = companiesInPath(target.pathname).find((named) => named !== companyId);
		if (pathCompany !== undefined) {
			throw new CompanyRefusal(
				`A request for company ${pathCompany} would carry the token of company ${companyId}; nothing was sent.`,
			);
		}
		const found = lookUpCompany(credentials, companyId);
		if ('problem' in found) throw new CompanyRefusal(found.problem);
		return {
			...requestOptions,
			headers: { ...headers, Authorization: `Bearer ${found.company.accessToken}` },
		};
	}
}
