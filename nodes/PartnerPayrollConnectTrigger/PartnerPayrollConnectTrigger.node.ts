import {
	NodeConnectionTypes,
	type IDataObject,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { scopesField } from '../../credentials/scopes';
import { storedLinkKey } from '../shared/connectLinkKey';
import { PARTNER_CREDENTIAL } from '../shared/credentialStore';
import { verifyConnectedPage } from '../shared/linkSigning';
import { N8N_API_CREDENTIAL } from '../shared/n8nApi';
import { manualWebhookMethods } from '../shared/manualWebhookMethods';
import {
	NOTHING_STARTED,
	connectSetupProblem,
	logRedirectUri,
	queryValue,
} from './helpers/connect';
import { ALLOW_ANY_COMPANY, openLink } from './helpers/openLink';
import { PARTNER_MUST_FINISH, consentErrorText, sendPage } from './helpers/pages';
import { LOG_PREFIX } from './helpers/refusalLog';
import { comeBack } from './helpers/wayBack';

export class PartnerPayrollConnectTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Partner Payroll Connect Trigger',
		name: 'partnerPayrollConnectTrigger',
		icon: {
			light: 'file:../../icons/partnerPayroll.svg',
			dark: 'file:../../icons/partnerPayroll.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: 'Connect Link',
		description:
			"Connect link for client companies: adds or replaces a company's token in the Partner API credential when its administrator consents",
		defaults: { name: 'Partner Payroll Connect Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: PARTNER_CREDENTIAL, required: true },
			{ name: N8N_API_CREDENTIAL, required: true },
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'GET',
				responseMode: 'onReceived',
				path: 'connect',
			},
		],
		properties: [
			{
				displayName:
					"Register this node's Production URL (above, under Webhook URLs) as the redirect URI of your partner application with the provider, and publish the workflow. Then make a link per client company with the Partner Payroll node (Partner Credential → Create Connect Link) and send it to the company's administrator. Each consent adds the company to the Partner API credential, or replaces its token in its row.",
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				...scopesField,
				description:
					'Scopes the connect link asks the administrator for. Empty asks for all five. Select only scopes registered for your application: the authorization server refuses any other.',
			},
			{
				displayName: 'Allow Any Company (Open Link)',
				name: ALLOW_ANY_COMPANY,
				type: 'boolean',
				default: false,
				description:
					"Whether the Production URL itself, without an invitation, connects any company whose administrator consents. Its row is named by the company's ID. Anyone who gets the URL can add companies to the credential.",
			},
		],
	};

	webhookMethods = manualWebhookMethods(logRedirectUri);

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const query = this.getQueryData() as IDataObject;
		const partner = await this.getCredentials(PARTNER_CREDENTIAL);
		const setupProblem = connectSetupProblem(partner);
		if (setupProblem) {
			this.logger.error(`${LOG_PREFIX} ${setupProblem}`);
			sendPage(this, 503, 'Not connected yet', [PARTNER_MUST_FINISH]);
			return NOTHING_STARTED;
		}
		const linkUrl = this.getNodeWebhookUrl('default') ?? '';

		const providerError = queryValue(query, 'error');
		if (providerError) {
			sendPage(this, 400, 'Not connected', [consentErrorText(providerError)]);
			return NOTHING_STARTED;
		}

		const connected = queryValue(query, 'connected');
		if (connected) {
			const key = storedLinkKey(partner);
			const shown = key && verifyConnectedPage(connected, { key, linkUrl });
			if (!shown || 'problem' in shown) {
				sendPage(this, 400, 'This page is no longer valid', [
					'Nothing changed. If your partner asks you to connect again, open their connect link.',
				]);
				return NOTHING_STARTED;
			}
			const { companyId, label } = shown.content;
			const name = label === companyId ? companyId : `${label} (company ${companyId})`;
			sendPage(this, 200, `Connected: ${name}`, [
				`Your company ${name} is now connected to your payroll partner. You can close this page.`,
			]);
			return NOTHING_STARTED;
		}

		return queryValue(query, 'code')
			? await comeBack(this, partner, query, linkUrl)
			: await openLink(this, partner, query, linkUrl);
	}
}
