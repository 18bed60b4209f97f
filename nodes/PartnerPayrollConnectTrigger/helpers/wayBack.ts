import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { storedLinkKey } from '../../shared/connectLinkKey';
import { verifyState } from '../../shared/linkSigning';
import { bindingOf, useState } from './browserBinding';
import { NOTHING_STARTED, connect, queryValue } from './connect';
import { sendPage, sendRedirect } from './pages';
import { warnRefusal } from './refusalLog';

// Back from the consent page with a code. Anyone may call this URL: only a state this link signed,
// coming back for the first time to the browser that opened the link, gets its code exchanged.
// Everything else is refused with a fixed page, no execution and no request.

function refuse(
	context: IWebhookFunctions,
	why: string,
	status: number,
	title: string,
	page: string,
): IWebhookResponseData {
	warnRefusal(context, `refused a return from the consent page: ${why}.`);
	sendPage(context, status, title, [page]);
	return NOTHING_STARTED;
}

/** A state this link did not sign, or no longer accepts. */
const refuseState = (context: IWebhookFunctions, problem: string) =>
	refuse(
		context,
		`the state ${problem}`,
		400,
		'This link is no longer valid',
		`Nothing was connected: the link ${problem}. Open the connect link your partner sent you again.`,
	);

export async function comeBack(
	context: IWebhookFunctions,
	partner: ICredentialDataDecryptedObject,
	query: IDataObject,
	linkUrl: string,
): Promise<IWebhookResponseData> {
	const key = storedLinkKey(partner);
	if (key === undefined) return refuseState(context, 'is not one of this link');
	const signer = { key, linkUrl };
	const verified = verifyState(queryValue(query, 'state'), signer);
	if ('problem' in verified) return refuseState(context, verified.problem);
	const { nonce, exp, invitee } = verified.content;
	const code = queryValue(query, 'code');
	const binding = bindingOf(context, nonce, code);
	if ('otherBrowser' in binding) {
		return refuse(
			context,
			'its state was not opened in this browser',
			400,
			'This link is no longer valid',
			'Nothing was connected: the consent came back to another browser than the one that opened the link. Open the connect link your partner sent you again, in this browser.',
		);
	}
	if (!binding.fresh) {
		// A reload, or the browser's history: the code is never exchanged twice (the service would revoke the token).
		if (binding.connectedPage) {
			sendRedirect(context, binding.connectedPage);
			return NOTHING_STARTED;
		}
		return refuse(
			context,
			binding.reopened ? 'its state was already used (a reload)' : 'its state was already used',
			409,
			'This link was already used',
			'Nothing changed. If your company is not connected yet, open the connect link your partner sent you again.',
		);
	}
	useState(context, { nonce, exp }, code, linkUrl);
	return await connect(context, partner, code, {
		signer,
		nonce,
		...(invitee ? { invitee } : {}),
	});
}
