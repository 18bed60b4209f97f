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

/** Headers of every answer: the URL of the way back holds the authorization code. */
const PRIVATE_HEADERS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

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
