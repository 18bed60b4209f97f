import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { withoutTrailingSlashes } from '../../shared/connection';
import { storedLinkKey } from '../../shared/connectLinkKey';
import { requestedScopes } from '../../shared/credentialTest';
import {
	signState,
	verifyInvitation,
	type Invitee,
	type LinkSigner,
} from '../../shared/linkSigning';
import { bindToBrowser } from './browserBinding';
import { NOTHING_STARTED, failed, keyWhenStorable, queryValue } from './connect';
import { sendPage, sendRedirect } from './pages';
import { warnRefusal } from './refusalLog';

// The connect link opened: on to the provider's consent page with a state bound to this browser,
// when the link carries the partner's invitation, or when the trigger accepts any company.

/** Name of the trigger's option that accepts a link without an invitation. */
export const ALLOW_ANY_COMPANY = 'allowAnyCompany';

/** Whom the link invites, or the page that refuses it; `undefined` invitee: any company (the open link). */
function inviteeOf(
	context: IWebhookFunctions,
	partner: ICredentialDataDecryptedObject,
	query: IDataObject,
	linkUrl: string,
): { invitee?: Invitee } | 'refused' {
	const invitation = queryValue(query, 'invitation');
	if (invitation === '') {
		if (context.getNodeParameter(ALLOW_ANY_COMPANY, false) === true) return {};
		warnRefusal(
			context,
			'refused a connect link without an invitation (Allow Any Company is off).',
		);
		sendPage(context, 400, 'This link is not complete', [
			'Nothing was connected: this link needs the invitation your payroll partner made for your company. Ask them for your link.',
		]);
		return 'refused';
	}
	const key = storedLinkKey(partner);
	const verified = key
		? verifyInvitation(invitation, { key, linkUrl })
		: { problem: 'is not one of this link' };
	if ('problem' in verified) {
		warnRefusal(context, `refused an invitation: it ${verified.problem}.`);
		sendPage(context, 400, 'This link is not valid', [
			`Nothing was connected: the invitation in this link ${verified.problem}. Ask your partner for a new link.`,
		]);
		return 'refused';
	}
	const { label, companyId } = verified.content;
	return { invitee: { label, ...(companyId ? { companyId } : {}) } };
}

export async function openLink(
	context: IWebhookFunctions,
	partner: ICredentialDataDecryptedObject,
	query: IDataObject,
	linkUrl: string,
): Promise<IWebhookResponseData> {
	const invited = inviteeOf(context, partner, query, linkUrl);
	if (invited === 'refused') return NOTHING_STARTED;
	const ready = await keyWhenStorable(context, partner);
	if ('failure' in ready) return failed(context, invited.invitee?.label ?? '', ready.failure);
	sendToConsent(context, partner, { key: ready.key, linkUrl }, invited.invitee);
	return NOTHING_STARTED;
}

/** On to the provider's consent page, with a signed state whose nonce this browser keeps. */
function sendToConsent(
	context: IWebhookFunctions,
	partner: ICredentialDataDecryptedObject,
	signer: LinkSigner,
	invitee: Invitee | undefined,
): void {
	const { state, nonce } = signState(invitee, signer);
	const authorize = new URL(`${withoutTrailingSlashes(partner.authServerUrl)}/authorize`);
	authorize.searchParams.set('response_type', 'code');
	authorize.searchParams.set('client_id', String(partner.clientId).trim());
	authorize.searchParams.set('redirect_uri', signer.linkUrl);
	const scopes = requestedScopes({ scopes: context.getNodeParameter('scopes', []) as string[] });
	authorize.searchParams.set('scope', scopes.join(' '));
	authorize.searchParams.set('state', state);
	bindToBrowser(context, nonce, signer.linkUrl);
	sendRedirect(context, authorize.toString());
}
