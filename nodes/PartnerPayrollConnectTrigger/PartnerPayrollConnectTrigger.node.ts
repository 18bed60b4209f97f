import {
	NodeConnectionTypes,
	type IDataObject,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { scopesField } from '../../credentials/scopes';
import { PARTNER_CREDENTIAL } from '../shared/credentialStore';
import { N8N_API_CREDENTIAL } from '../shared/n8nApi';
import { manualWebhookMethods } from '../shared/manualWebhookMethods';
import { PARTNER_MUST_FINISH, sendPage } from './helpers/pages';
import { verifyConnectedPage, verifyState } from './helpers/linkSigning';
import {
	LOG_PREFIX,
	NOTHING_STARTED,
	connect,
	connectSetupProblem,
	logRedirectUri,
	queryValue,
	sendToConsent,
} from './helpers/connect';

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
					"Register this node's Production URL (above, under Webhook URLs) as the redirect URI of your partner application with the provider, and publish the workflow. The Production URL is the connect link: send it to a client company's administrator, with ?label=<a name for the company> if you like. Each consent adds the company to the Partner API credential, or replaces its token.",
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				...scopesField,
				description:
					'Scopes the connect link asks the administrator for. Empty asks for all five. Select only scopes registered for your application: the authorization server refuses any other.',
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
		const clientSecret = String(partner.clientSecret);
		const redirectUri = this.getNodeWebhookUrl('default') ?? '';

		const providerError = queryValue(query, 'error');
		if (providerError) {
			sendPage(this, 400, 'Not connected', [
				providerError === 'access_denied'
					? 'Access was refused on the consent page, so nothing was connected. To connect your company, open the link again and accept.'
					: `The payroll service did not connect your company (${providerError}). Ask your partner for the link again.`,
			]);
			return NOTHING_STARTED;
		}

		const connected = queryValue(query, 'connected');
		if (connected) {
			const shown = verifyConnectedPage(connected, clientSecret);
			if ('problem' in shown) {
				sendPage(this, 400, 'This page is no longer valid', [
					'Nothing changed. If your partner asks you to connect again, open their connect link.',
				]);
				return NOTHING_STARTED;
			}
			const { companyId, label } = shown.page;
			const name = label === companyId ? companyId : `${label} (company ${companyId})`;
			sendPage(this, 200, `Connected: ${name}`, [
				`Your company ${name} is now connected to your payroll partner. You can close this page.`,
			]);
			return NOTHING_STARTED;
		}

		const code = queryValue(query, 'code');
		if (!code)
			return sendToConsent(this, queryValue(query, 'label'), clientSecret, partner, redirectUri);

		// Anyone may call this URL: a state this link did not sign starts nothing.
		const verified = verifyState(queryValue(query, 'state'), clientSecret);
		if ('problem' in verified) {
			this.logger.warn(`${LOG_PREFIX} refused a return from the consent page: ${verified.problem}`);
			sendPage(this, 400, 'This link is no longer valid', [
				`Nothing was connected: ${verified.problem}. Open the connect link your partner sent you again.`,
			]);
			return NOTHING_STARTED;
		}
		return await connect(this, partner, code, redirectUri, verified.state.label ?? '');
	}
}
