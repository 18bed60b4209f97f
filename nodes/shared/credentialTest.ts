import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IDataObject,
	IN8nHttpFullResponse,
	INode,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { ALL_SCOPES } from '../../credentials/scopes';
import { INACTIVE_TOKEN_TEST, tokenLookupFailure } from './apiError';
import { introspectToken } from './company';
import { withoutTrailingSlashes, type Connection } from './connection';

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

/** The credential as a connection of the transport: n8n's credential-test request helper, one attempt. */
function testConnection(
	context: ICredentialTestFunctions,
	data: ICredentialDataDecryptedObject,
	accessToken: string,
): Connection {
	const authServerUrl = withoutTrailingSlashes(data.authServerUrl);
	return {
		credentialType: 'credential test',
		baseUrl: withoutTrailingSlashes(data.baseUrl),
		authServerUrl,
		accessToken,
		application: `${authServerUrl} credential test`,
		rateLimitAdvice: 'Try again in a minute.',
		// The user waits for the answer: one attempt, and its failure at once.
		attempts: 1,
		send: async (options) => {
			const response = (await context.helpers.request({
				method: options.method,
				uri: `${options.baseURL ?? ''}${options.url}`,
				body: options.body,
				json: true,
				headers: { ...options.headers, Authorization: `Bearer ${accessToken}` },
				timeout: options.timeout,
				resolveWithFullResponse: true,
				simple: false,
				followRedirect: false,
				followAllRedirects: false,
			})) as { statusCode: number; headers: IDataObject; body: unknown };
			return {
				statusCode: response.statusCode,
				headers: response.headers,
				body: response.body,
			} as IN8nHttpFullResponse;
		},
	};
}

async function testToken(
	context: ICredentialTestFunctions,
	data: ICredentialDataDecryptedObject,
	accessToken: string,
	requestedScopes?: string[],
): Promise<INodeCredentialTestResult> {
	const connection = testConnection(context, data, accessToken);
	let introspection;
	try {
		introspection = await introspectToken({ getNode: () => TEST_NODE }, connection);
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

/** The nodes' `methods.credentialTest`, named by `testedBy` in their credentials. */
export const credentialTests = {
	async partnerPayrollTokenTest(
		this: ICredentialTestFunctions,
		credential: ICredentialsDecrypted,
	): Promise<INodeCredentialTestResult> {
		const data = credential.data ?? {};
		if (credential.type === 'partnerPayrollOAuth2Api') {
			const tokenData = data.oauthTokenData as { access_token?: string } | undefined;
			return await testToken(this, data, String(tokenData?.access_token ?? ''), requestedScopes(data));
		}
		return await testToken(this, data, String(data.accessToken ?? ''));
	},
};
