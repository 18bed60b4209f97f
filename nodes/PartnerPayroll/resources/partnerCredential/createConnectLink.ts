import { updateDisplayOptions, type IExecuteFunctions } from 'n8n-workflow';

import { forbiddenLabelCharacter, isCompanyId } from '../../../../credentials/partnerCompanies';
import { linkKey } from '../../../shared/connectLinkKey';
import { PARTNER_CREDENTIAL } from '../../../shared/credentialStore';
import { parameterError } from '../../../shared/errors';
import { signInvitation, type Invitee } from '../../../shared/linkSigning';
import type { Operation } from '../resource';

/** Longest label of a company's row. */
const MAX_LABEL_LENGTH = 100;
const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_LIFETIME_DAYS = 30;

/** The Connect trigger's Production URL as typed, or what is wrong with it. */
function connectLinkOf(context: IExecuteFunctions, itemIndex: number): string {
	const typed = String(context.getNodeParameter('connectLink', itemIndex, '')).trim();
	const url = URL.canParse(typed) ? new URL(typed) : undefined;
	if (
		!url ||
		!/^https?:$/.test(url.protocol) ||
		url.search ||
		url.hash ||
		!/\/connect$/.test(url.pathname)
	) {
		throw parameterError(
			context.getNode(),
			`Connect Link URL must be the Production URL of your Partner Payroll Connect Trigger, ending in /connect (got ${JSON.stringify(typed)})`,
			{ itemIndex },
		);
	}
	return typed;
}

/** The invitee as typed: a label of short visible text, and a company ID when one is expected. */
function inviteeOf(context: IExecuteFunctions, itemIndex: number): Invitee {
	const node = context.getNode();
	// One form for one text: a label typed with combining accents reads and compares as the composed one.
	const label = String(context.getNodeParameter('label', itemIndex, ''))
		.trim()
		.normalize('NFC');
	const hidden = forbiddenLabelCharacter(label);
	if (label === '' || label.length > MAX_LABEL_LENGTH || hidden !== undefined) {
		throw parameterError(
			node,
			`Label must be text of 1 to ${MAX_LABEL_LENGTH} characters, without control or invisible characters${hidden ? ` (found ${hidden})` : ''}`,
			{ itemIndex },
		);
	}
	const companyId = String(context.getNodeParameter('expectedCompanyId', itemIndex, '')).trim();
	if (companyId !== '' && !isCompanyId(companyId)) {
		throw parameterError(
			node,
			`Expected Company ID "${companyId}" is not a company ID (letters, digits, "-" and "_", up to 64)`,
			{ itemIndex },
		);
	}
	return { label, ...(companyId ? { companyId } : {}) };
}

/**
 * A connect link for one client company: the Connect trigger's Production URL with the partner's
 * signed invitation (the row's label, the company expected to consent, an expiry). The link can be
 * opened again until it expires, for instance after a refused consent.
 */
export const createConnectLink: Operation = {
	option: {
		name: 'Create Connect Link',
		value: 'createConnectLink',
		action: 'Create a connect link for a client company',
		description:
			"A link to send to a client company's administrator: their consent adds the company to the Partner API credential, under your label",
	},
	fields: updateDisplayOptions(
		{ show: { resource: ['partnerCredential'], operation: ['createConnectLink'] } },
		[
			{
				displayName: 'Connect Link URL',
				name: 'connectLink',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'https://n8n.example.com/webhook/…/connect',
				description: 'The Production URL of your Partner Payroll Connect Trigger',
			},
			{
				displayName: 'Label',
				name: 'label',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'Boulangerie Martin',
				description:
					"The company's name in the credential's list. A company already in the list keeps its own label.",
			},
			{
				displayName: 'Expected Company ID',
				name: 'expectedCompanyId',
				type: 'string',
				default: '',
				placeholder: 'FR1001',
				description:
					'The only company whose consent the link accepts. Empty: any company the administrator chooses on the consent page.',
			},
			{
				displayName: 'Lifetime (Days)',
				name: 'lifetimeDays',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_LIFETIME_DAYS, numberPrecision: 0 },
				default: 7,
				description: `How long the link can be opened, at most ${MAX_LIFETIME_DAYS} days`,
			},
		],
	),
	oneItemAtATime: true,
	withoutCompany: true,
	async execute(itemIndex, connection) {
		const node = this.getNode();
		if (!connection.partner) {
			throw parameterError(
				node,
				'Create Connect Link works on the Partner API credential: set Authentication to Partner API (Many Companies).',
				{ itemIndex },
			);
		}
		const linkUrl = connectLinkOf(this, itemIndex);
		const invitee = inviteeOf(this, itemIndex);
		const days = Number(this.getNodeParameter('lifetimeDays', itemIndex, 7));
		if (!Number.isInteger(days) || days < 1 || days > MAX_LIFETIME_DAYS) {
			throw parameterError(
				node,
				`Lifetime (Days) must be a whole number from 1 to ${MAX_LIFETIME_DAYS} (got ${days})`,
				{
					itemIndex,
				},
			);
		}
		const key = await linkKey(this, await this.getCredentials(PARTNER_CREDENTIAL, itemIndex));
		const expiresAt = Date.now() + days * DAY_MS;
		const link = new URL(linkUrl);
		link.searchParams.set('invitation', signInvitation(invitee, expiresAt, { key, linkUrl }));
		return [
			{
				json: {
					connectLink: link.toString(),
					label: invitee.label,
					companyId: invitee.companyId ?? null,
					expiresAt: new Date(expiresAt).toISOString(),
				},
			},
		];
	},
};
