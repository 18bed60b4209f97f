import type { IWebhookFunctions } from 'n8n-workflow';

// What the connect link answers the company's administrator: a plain page, never stored by the
// browser or a proxy, and never a token, a code or a detail of the partner's setup.

export function escapeHtml(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');
}

/**
 * Headers of every answer: the URL of the way back holds the authorization code, and a page of the
 * partner's domain loads nothing, runs nothing and is shown in no frame.
 */
const PRIVATE_HEADERS = {
	'Cache-Control': 'no-store',
	'Referrer-Policy': 'no-referrer',
	'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
	'X-Content-Type-Options': 'nosniff',
};

export function sendPage(
	context: IWebhookFunctions,
	status: number,
	title: string,
	paragraphs: string[],
): void {
	const body = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>
<h1 id="title">${escapeHtml(title)}</h1>
${paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n')}
</body>
</html>
`;
	const res = context.getResponseObject();
	for (const [name, value] of Object.entries(PRIVATE_HEADERS)) res.setHeader(name, value);
	res.setHeader('Content-Type', 'text/html; charset=utf-8');
	res.status(status);
	res.end(body);
}

export function sendRedirect(context: IWebhookFunctions, location: string): void {
	const res = context.getResponseObject();
	for (const [name, value] of Object.entries(PRIVATE_HEADERS)) res.setHeader(name, value);
	res.setHeader('Location', location);
	res.status(302);
	res.end();
}

/** Said to the administrator whenever the partner's side must act: no detail of that side. */
export const PARTNER_MUST_FINISH =
	'Your payroll partner must finish setting up this connection on their side. Nothing is needed from you now; they will send you the link again.';

const TRY_LATER =
	'The payroll service could not complete the consent just now, so nothing was connected. Open the link again in a few minutes.';

/** What the page says for each error code of the consent page (RFC 6749 4.1.2.1): never the text of the query. */
const CONSENT_ERRORS = new Map(
	Object.entries({
		access_denied:
			'Access was refused on the consent page, so nothing was connected. To connect your company, open the link again and accept.',
		invalid_scope:
			'The payroll service refused the access this link asks for, so nothing was connected. Tell your partner.',
		server_error: TRY_LATER,
		temporarily_unavailable: TRY_LATER,
	}),
);

export function consentErrorText(code: string): string {
	return (
		CONSENT_ERRORS.get(code) ??
		'The payroll service did not connect your company. Ask your partner for the link again.'
	);
}
