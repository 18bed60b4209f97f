import { NodeApiError, type INode } from 'n8n-workflow';

// What the Partner Payroll nodes and the Partner API credential agree on about a request's company:
// how a request names it, and how the credential refuses one it will not sign.

/** The request header through which the nodes name the company a request is for; read by the credential, never sent. */
export const COMPANY_HINT_HEADER = 'x-partner-payroll-company';

/** What the credential's refusals name as their node: the node that sent the request replaces it. */
const CREDENTIAL_AS_NODE = {
	name: 'Partner Payroll Partner API credential',
	type: 'partnerPayrollPartnerApi',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;

// n8n quirk Q16: docs/n8n-quirks.md
/**
 * A request the credential refuses to sign (no company named, a company it cannot serve, another
 * company's path, another origin): nothing was sent. n8n's request helper wraps whatever
 * `authenticate` throws into an API error that drops the original's class, except n8n's own API
 * errors, which it passes on as they are: so the node can tell this refusal from a failed request.
 */
export class CompanyRefusal extends NodeApiError {
	constructor(readonly problem: string) {
		super(CREDENTIAL_AS_NODE, { message: problem }, { message: problem });
	}
}
