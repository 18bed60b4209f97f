import type { ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

/**
 * The signing secrets of the partner's webhook endpoints (Svix). Nothing is sent with them: the
 * Partner Payroll Webhook Trigger checks each delivery's signature with them, and tests their shape
 * offline (its `credentialTest` method, named by `testedBy`), since the service has no request that
 * could check a signing secret.
 */
export class PartnerPayrollWebhookApi implements ICredentialType {
	name = 'partnerPayrollWebhookApi';

	// n8n's lint wants credential names to end with API.
	displayName = 'Partner Payroll Webhook Signing Secret API';

	icon: Icon = {
		light: 'file:../icons/partnerPayroll.svg',
		dark: 'file:../icons/partnerPayroll.dark.svg',
	};

	documentationUrl =
		'https://github.com/partner-payroll/n8n-nodes-partner-payroll#partner-payroll-webhook-trigger';

	properties: INodeProperties[] = [
		{
			displayName: 'Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			placeholder: 'whsec_...',
			description:
				"The endpoint's signing secret, shown in the provider's webhook portal next to the endpoint URL (starts with whsec_)",
		},
		{
			displayName: 'Additional Signing Secrets',
			name: 'additionalSigningSecrets',
			type: 'string',
			typeOptions: { password: true, rows: 3 },
			default: '',
			placeholder: 'whsec_..., whsec_...',
			description:
				"Other secrets accepted too, separated by spaces, commas or new lines: the secret of a second endpoint (for example the one with n8n's test URL), or the previous secret during a rotation",
		},
	];
}
