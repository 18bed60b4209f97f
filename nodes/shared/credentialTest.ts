import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	INode,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { companyName, readCompanyRows, type CompanyRow } from '../../credentials/partnerCompanies';
import { ALL_SCOPES } from '../../credentials/scopes';
import { PartnerPayrollApiError } from './apiError';
import { inPool } from './pool';
import { introspectToken } from './company';
import { connectionOf } from './authentication';
import type { Connection } from './connection';
import { isObject } from './bodies';

// The credential Test of both credentials: the token is introspected through the package's one
// transport, and the answer says which company and which scopes the credential is connected to.

// The test's errors are built like the node's; n8n shows only their message.
const TEST_NODE: INode = {
	id: 'credential-test',
	name: 'Partner Payroll credential Test',
	type: 'partnerPayrollCredentialTest',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

// What a credential Test says of the token lookup's failures (it shows the message only).

/** An error body's `code` (the service sends the HTTP status there) and what it most likely means. */
const CAUSE_BY_CODE: Record<number, string> = {
	400: 'The authorization server refused the introspection request (400). Check the Authorization Server URL.',
	401: 'The token was refused (401): it is invalid, revoked or replaced by a newer one. Reconnect or paste a new token.',
	403: 'The token may not be checked (403): it lacks a scope or the application is not allowed. Check the scopes of the token.',
	404: 'Nothing answers at the Authorization Server URL (404). Check the address: the test calls <Authorization Server URL>/introspect.',
	429: 'The authorization server asks to slow down (429). Try again in a minute.',
	500: 'The authorization server failed (500). Try again later, or check the Authorization Server URL.',
	502: 'The authorization server failed (502). Try again later, or check the Authorization Server URL.',
	503: 'The authorization server failed (503). Try again later, or check the Authorization Server URL.',
	504: 'The authorization server failed (504). Try again later, or check the Authorization Server URL.',
};

/** An OAuth 2.0 error body (RFC 6749 / RFC 7662: `{"error": "invalid_token"}`) and what it means here. */
const CAUSE_BY_OAUTH_ERROR: Record<string, string> = {
	invalid_token:
		'The token was refused (invalid_token): it is invalid, revoked or replaced by a newer one. Reconnect or paste a new token.',
	invalid_request:
		'The authorization server refused the introspection request (invalid_request). Check the Authorization Server URL.',
	invalid_client:
		'The authorization server does not accept the application (invalid_client). Check the client of the token with the provider.',
};

const NOT_AN_INTROSPECTION_TEST =
	'The Authorization Server URL did not answer like an introspection endpoint (no JSON "active" field). Check the address.';

const INACTIVE_TOKEN_TEST =
	'The token is not active: it was revoked, replaced by a newer token, or never existed. Reconnect or paste a new token.';

/** The likely cause of a failed token lookup, read from the answer's body as the service words it. */
function tokenLookupFailure(error: unknown): string {
	if (!(error instanceof PartnerPayrollApiError && error.httpCode)) {
		const message = (error as Error).message;
		return /did not answer like an introspection endpoint/.test(message)
			? NOT_AN_INTROSPECTION_TEST
			: message;
	}
	const body = isObject(error.errorResponse) ? error.errorResponse : {};
	const byOAuthError = CAUSE_BY_OAUTH_ERROR[String(body.error)];
	if (byOAuthError) return byOAuthError;
	// The real 429 body, a proxy's page: no `code`, so not the server's word on the token.
	return CAUSE_BY_CODE[Number(body.code)] ?? NOT_AN_INTROSPECTION_TEST;
}

/** A credential Test's context as the transport's caller: n8n gives it no node, so errors name TEST_NODE. */
const testContext = (context: ICredentialTestFunctions) => ({
	getNode: () => TEST_NODE,
	helpers: context.helpers,
});

/** The credential as a connection of the transport: n8n's credential-test request helper, one attempt. */
function testConnection(data: ICredentialDataDecryptedObject, accessToken: string): Connection {
	return connectionOf(data, {
		credentialType: 'credential test',
		accessToken,
		countedAs: 'credentialTest',
		rateLimitAdvice: 'Try again in a minute.',
		// The user waits for the answer: one attempt, and its failure at once.
		attempts: 1,
		// A credential Test's context has only the request library's helper.
		signing: { by: 'bearer', helper: 'request' },
	});
}

async function testToken(
	context: ICredentialTestFunctions,
	data: ICredentialDataDecryptedObject,
	accessToken: string,
	requestedScopes?: string[],
): Promise<INodeCredentialTestResult> {
	const connection = testConnection(data, accessToken);
	let introspection;
	try {
		introspection = await introspectToken(testContext(context), connection);
	} catch (error) {
		return { status: 'Error', message: tokenLookupFailure(error) };
	}
	if (!introspection.active) return { status: 'Error', message: INACTIVE_TOKEN_TEST };
	const company = introspection.company_id ?? 'unknown';
	const granted = String(introspection.scope ?? '')
		.split(' ')
		.filter(Boolean);
	const missing = (requestedScopes ?? []).filter((scope) => !granted.includes(scope));
	if (missing.length) {
		return {
			status: 'Error',
			message: `Connected to company ${company}, but the token lacks the scopes ${missing.join(', ')} (granted: ${granted.join(', ') || 'none'}). Select the scopes registered for your application in Scopes, save, then reconnect.`,
		};
	}
	return {
		status: 'OK',
		message: `Connected to company ${company} with the scopes ${granted.join(', ') || 'none'}`,
	};
}

/** The scopes an OAuth2 credential asks for: those selected, all of them when none is. */
export function requestedScopes(data: ICredentialDataDecryptedObject): string[] {
	const selected = Array.isArray(data.scopes) ? (data.scopes as string[]) : [];
	return selected.length ? selected : ALL_SCOPES;
}

// The Partner API credential's Test introspects every company within this time, a few at once (the
// authorization server's pace applies); the companies it could not reach in time are named.
const PARTNER_TEST_BUDGET_MS = 20_000;
const PARTNER_TEST_IN_FLIGHT = 8;

/** What the Test found for one company of the list: undefined when its token is active and its own. */
async function partnerRowProblem(
	context: ICredentialTestFunctions,
	data: ICredentialDataDecryptedObject,
	row: CompanyRow,
): Promise<string | undefined> {
	if (row.problem !== undefined || row.accessToken === undefined) return row.problem;
	const name = companyName(row);
	let introspection;
	try {
		introspection = await introspectToken(
			testContext(context),
			testConnection(data, row.accessToken),
		);
	} catch (error) {
		return `${name}: ${tokenLookupFailure(error)}`;
	}
	if (!introspection.active) return `${name}: ${INACTIVE_TOKEN_TEST}`;
	if (introspection.company_id !== row.companyId) {
		return `${name}: the token is for company ${introspection.company_id ?? 'unknown'}, not ${row.companyId}. Connect ${row.companyId} again through the connect link.`;
	}
	const clientId = String(data.clientId ?? '').trim();
	if (clientId && introspection.client_id !== clientId) {
		return `${name}: the token was issued to ${introspection.client_id ? `client ${introspection.client_id}` : 'no client (a company API key)'}, not to this credential's client ${clientId}.`;
	}
	return undefined;
}

/** Every company of the Partner API credential, a few at once, until the time budget runs out. */
async function testPartnerCompanies(
	context: ICredentialTestFunctions,
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const rows = readCompanyRows(data);
	if (rows.length === 0) {
		return {
			status: 'Error',
			message:
				'The company list is empty. Connect companies with the connect link, or add a row with its Company ID and its token as COMPANYID:token.',
		};
	}
	const deadline = Date.now() + PARTNER_TEST_BUDGET_MS;
	const problems = new Map<CompanyRow, string>();
	const unchecked: CompanyRow[] = [];
	await inPool(rows, PARTNER_TEST_IN_FLIGHT, async (row) => {
		if (Date.now() > deadline) unchecked.push(row);
		else {
			const problem = await partnerRowProblem(context, data, row);
			if (problem !== undefined) problems.set(row, problem);
		}
		return true;
	});
	const ok = rows.length - problems.size - unchecked.length;
	if (problems.size === 0 && unchecked.length === 0) {
		return {
			status: 'OK',
			message: `All ${rows.length} companies are connected, each with its own token: ${rows.map(companyName).join(', ')}`,
		};
	}
	const inOrder = rows.filter((row) => problems.has(row)).map((row) => problems.get(row));
	const notChecked = unchecked.length
		? [
				`${unchecked.length} not checked within ${PARTNER_TEST_BUDGET_MS / 1000} s: ${unchecked.map(companyName).join(', ')}`,
			]
		: [];
	return {
		status: 'Error',
		message: `${ok} of ${rows.length} companies are connected. ${[...inOrder, ...notChecked].join(' | ')}`,
	};
}

/** The nodes' `methods.credentialTest`, named by `testedBy` in their credentials. */
export const credentialTests = {
	async partnerPayrollTokenTest(
		this: ICredentialTestFunctions,
		credential: ICredentialsDecrypted,
	): Promise<INodeCredentialTestResult> {
		const data = credential.data ?? {};
		if (credential.type === 'partnerPayrollOAuth2Api') {
			const tokenData = data.oauthTokenData as { access_token?: string } | undefined;
			return await testToken(
				this,
				data,
				String(tokenData?.access_token ?? ''),
				requestedScopes(data),
			);
		}
		return await testToken(this, data, String(data.accessToken ?? ''));
	},

	async partnerPayrollCompaniesTest(
		this: ICredentialTestFunctions,
		credential: ICredentialsDecrypted,
	): Promise<INodeCredentialTestResult> {
		return await testPartnerCompanies(this, credential.data ?? {});
	},
};
