import {
	NodeOperationError,
	type IHookFunctions,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { isCompanyId } from '../../../credentials/partnerCompanies';
import {
	ListChangeLost,
	changeCompanyList,
	checkCompanyListLock,
	isListed,
	withCompany,
} from '../../shared/credentialStore';
import { N8nApiProblem, n8nApiRequest } from '../../shared/n8nApi';
import type { Introspection } from '../../shared/company';
import { withoutTrailingSlashes } from '../../shared/connection';
import { linkKey, storedLinkKey } from '../../shared/connectLinkKey';
import { signConnectedPage, type Invitee, type LinkSigner } from '../../shared/linkSigning';
import { rememberConnected } from './browserBinding';
import { completedBeforeConnect } from './completedBeforeConnect';
import { CodeRefused, exchangeCode } from './exchange';
import { PARTNER_MUST_FINISH, sendPage, sendRedirect } from './pages';
import { LOG_PREFIX, warnRefusal } from './refusalLog';

// Back from the consent page with a code, once the state is accepted: exchange, check, store, answer.

/** Answered, and no execution. */
export const NOTHING_STARTED: IWebhookResponseData = { noWebhookResponse: true };

/** Answered, and one execution with this item. */
const started = (item: IDataObject): IWebhookResponseData => ({
	noWebhookResponse: true,
	workflowData: [[{ json: item }]],
});

/** A query value as one string (a repeated parameter is refused by taking none). */
export const queryValue = (query: IDataObject, name: string) =>
	typeof query[name] === 'string' ? (query[name] as string) : '';

/** What the connect link needs of the Partner API credential, or what is missing. */
export function connectSetupProblem(partner: ICredentialDataDecryptedObject): string | undefined {
	const missing = [
		['Authorization Server URL', withoutTrailingSlashes(partner.authServerUrl)],
		['Client ID', String(partner.clientId ?? '').trim()],
		['Client Secret', String(partner.clientSecret ?? '')],
	].filter(([, value]) => value === '');
	if (missing.length) {
		return `The Partner API credential has no ${missing.map(([name]) => name).join(', ')}: the connect link needs them.`;
	}
	if (!URL.canParse(withoutTrailingSlashes(partner.authServerUrl))) {
		return 'The Authorization Server URL of the Partner API credential is not a URL.';
	}
	return undefined;
}

/** Why a connect failed: the page the administrator sees, and the problem the partner reads. */
interface ConnectFailure {
	status: number;
	title: string;
	/** What the administrator can do, and no more. */
	page: string;
	problem: string;
	companyId?: string;
	/**
	 * Anyone can cause it (a junk or replayed code, a consent for a company not invited): a capped
	 * warning and no execution, so that it costs the partner nothing.
	 */
	refusal?: true;
}

type Failed = { failure: ConnectFailure };

/** A consent coming back: the link's signer, the state's nonce and its invitee (none: the open link). */
export interface Consent {
	signer: LinkSigner;
	nonce: string;
	invitee?: Invitee;
}

/** Back from the consent page with a code and an accepted state: exchange, check, store, answer. */
export async function connect(
	context: IWebhookFunctions,
	partner: ICredentialDataDecryptedObject,
	code: string,
	consent: Consent,
): Promise<IWebhookResponseData> {
	const label = consent.invitee?.label ?? '';
	const exchanged = await exchangeOnce(context, partner, code, consent.signer.linkUrl);
	if ('failure' in exchanged) return failed(context, label, exchanged.failure);
	const { token, introspection } = exchanged;
	const checked = companyOfToken(partner, introspection);
	if ('failure' in checked) return failed(context, label, checked.failure);
	const { companyId } = checked;
	const invited = consent.invitee?.companyId;
	const otherCompany = invited !== undefined && invited !== companyId;
	// The exchange replaced that company's token at the service: a company already in the list gets
	// the new token in its row (its old one no longer works); no other company is added this way.
	if (otherCompany && !isListed(partner, companyId)) {
		return failed(context, label, wrongCompany(companyId, invited));
	}
	const saved = await storeToken(context, { companyId, label, token });
	if ('failure' in saved) return failed(context, label, saved.failure);
	const item = answerConnected(context, consent, { companyId, introspection, ...saved });
	if (otherCompany) {
		item.invitedCompanyId = invited;
		item.warning = `This link was made for company ${invited}, and company ${companyId}'s administrator used it. ${companyId} was already connected and the service had replaced its token, so its row now holds the new one. ${invited} is not connected yet.`;
		context.logger.warn(`${LOG_PREFIX} ${String(item.warning)}`);
	}
	// Asked once the administrator has been answered: they never wait for the partner's notice. A
	// company whose token was replaced was in the list: the polling trigger already watches it.
	if (saved.replaced) return started(item);
	return started({
		...item,
		...(await completedBeforeConnect(context, partner, { companyId, token })),
	});
}

/**
 * The partner learns what failed from the execution's item and the log; the page says no more than
 * what the administrator can do.
 */
export function failed(
	context: IWebhookFunctions,
	label: string,
	failure: ConnectFailure,
): IWebhookResponseData {
	const { status, title, page, problem, companyId, refusal } = failure;
	sendPage(context, status, title, [page]);
	if (refusal) {
		warnRefusal(context, problem);
		return NOTHING_STARTED;
	}
	context.logger.error(`${LOG_PREFIX} ${problem}`);
	return started({ connected: false, ...(companyId ? { companyId } : {}), label, problem });
}

/**
 * Before the administrator consents, the link's key, n8n's API and the list's lock usable: the exchange
 * replaces the company's token at the service, so a token not saved would leave its row a dead token.
 */
export async function keyWhenStorable(
	context: IWebhookFunctions,
	partner: ICredentialDataDecryptedObject,
): Promise<{ key: string } | Failed> {
	try {
		const stored = storedLinkKey(partner);
		// A key to create is written through n8n's API: that write answers the same question.
		if (stored) await n8nApiRequest(context, 'GET', '/credentials?limit=1');
		const key = stored ?? (await linkKey(context, partner));
		await checkCompanyListLock(context);
		return { key };
	} catch (error) {
		if (!(error instanceof N8nApiProblem))
			throw new NodeOperationError(context.getNode(), error as Error);
		return {
			failure: {
				status: 503,
				title: 'Not connected yet',
				page: PARTNER_MUST_FINISH,
				problem: `Nothing was connected (the administrator was not sent to the consent page, so the company's current token still works): ${error.message}`,
			},
		};
	}
}

/** The company's token for the code, and what the authorization server says of it. */
async function exchangeOnce(
	context: IWebhookFunctions,
	partner: ICredentialDataDecryptedObject,
	code: string,
	redirectUri: string,
): Promise<{ token: string; introspection: Introspection } | Failed> {
	try {
		return await exchangeCode(context, partner, code, redirectUri);
	} catch (error) {
		const why = (error as Error).message;
		if (error instanceof CodeRefused) {
			return {
				failure: {
					status: 400,
					title: 'This link is no longer valid',
					page: 'Nothing was connected: this page was already used or has expired. Open the connect link your partner sent you again.',
					problem: `refused a return from the consent page: the token endpoint refused its code (${why}).`,
					refusal: true,
				},
			};
		}
		return {
			failure: {
				status: 502,
				title: 'Not connected',
				page: 'The payroll service did not confirm the connection. Open the connect link again; if it happens again, tell your partner.',
				problem: `The authorization code could not be exchanged for a token, or the token could not be checked: ${why}`,
			},
		};
	}
}

/** A consent of a company the invitation was not for, and that is not in the list: nothing saved. */
const wrongCompany = (companyId: string, invited: string): ConnectFailure => ({
	status: 403,
	title: 'Not connected',
	page: 'This link was made for another company, so nothing was saved. Ask your partner for the link made for your company.',
	problem: `refused a consent for company ${companyId}: the invitation was for company ${invited}. Nothing was saved (${companyId} is not in the company list); the service has replaced ${companyId}'s token for this application, so a credential of ${companyId} elsewhere stops working.`,
	companyId,
	refusal: true,
});

/** The token's company, when the token is active and was issued to this partner's application. */
function companyOfToken(
	partner: ICredentialDataDecryptedObject,
	introspection: Introspection,
): { companyId: string } | Failed {
	const clientId = String(partner.clientId).trim();
	const companyId = String(introspection.company_id ?? '');
	const isOurs =
		introspection.active && introspection.client_id === clientId && isCompanyId(companyId);
	if (isOurs) return { companyId };
	return {
		failure: {
			status: 502,
			title: 'Not connected',
			page: 'The payroll service gave a connection that is not for this partner. Nothing was saved; tell your partner.',
			problem: `The new token was not saved: introspection answered active ${String(introspection.active)}, client ${introspection.client_id ?? 'none'} (this credential's: ${clientId}), company ${JSON.stringify(introspection.company_id ?? null)}.`,
		},
	};
}

/** Adds the company's row to the Partner API credential, or replaces its token. */
async function storeToken(
	context: IWebhookFunctions,
	company: { companyId: string; label: string; token: string },
): Promise<{ label: string; replaced: boolean } | Failed> {
	const { companyId, token } = company;
	try {
		return await changeCompanyList(
			context,
			(rows) => {
				const { rows: written, ...result } = withCompany(rows, company);
				return { rows: written, result };
			},
			(rows) => rows.some((row) => row.companyId === companyId && row.accessToken === token),
		);
	} catch (error) {
		if (error instanceof ListChangeLost) {
			return {
				failure: {
					status: 409,
					title: 'Not connected: please try again',
					page: 'Another company was connected at the same moment. Open the connect link again to finish.',
					problem: `Company ${companyId}: ${error.message}`,
					companyId,
				},
			};
		}
		if (error instanceof N8nApiProblem) {
			return {
				failure: {
					status: 503,
					title: 'Not connected yet',
					page: PARTNER_MUST_FINISH,
					problem: `Company ${companyId} consented, but its token could not be saved, and its previous token (if any) no longer works: ${error.message} Then send the connect link again.`,
					companyId,
				},
			};
		}
		throw new NodeOperationError(context.getNode(), error as Error);
	}
}

/** Connected: on to the "connected" page; the company's item. */
function answerConnected(
	context: IWebhookFunctions,
	consent: Consent,
	connected: { companyId: string; introspection: Introspection; label: string; replaced: boolean },
): IDataObject {
	const { companyId, label } = connected;
	const scopes = String(connected.introspection.scope ?? '')
		.split(' ')
		.filter(Boolean);
	context.logger.info(`${LOG_PREFIX} connected company ${companyId}`);
	// On to the "connected" page: a reload of the address holding the code would use the code again,
	// and the service may then revoke the token just saved (RFC 6749 4.1.2; the sandbox does).
	const page = new URL(consent.signer.linkUrl);
	page.searchParams.set('connected', signConnectedPage(companyId, label, consent.signer));
	rememberConnected(consent.nonce, page.toString());
	sendRedirect(context, page.toString());
	return { connected: true, companyId, label, scopes, replaced: connected.replaced };
}

/** The redirect URI is registered with the provider by hand (it has no API for it): the log says which address. */
export function logRedirectUri(context: IHookFunctions): void {
	context.logger.info(
		`${LOG_PREFIX} the connect link is ${context.getNodeWebhookUrl('default') ?? "this node's Production URL"}; it must be a registered redirect URI of the partner application at the provider`,
	);
}
