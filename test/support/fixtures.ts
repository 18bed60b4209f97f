import { createHash } from 'crypto';
import type { IDataObject, INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';

import sandboxClients from '../../sandbox/clients.json';
import { runDeclarativeNode, type NodeRun, type TestCredentials } from './n8n-harness';
import { FakeDataTables } from './fake-data-tables';
import { startSandbox, type Sandbox } from './sandbox';
import { PartnerPayroll } from '../../nodes/PartnerPayroll/PartnerPayroll.node';

export const ALL_SCOPES = [
	'payment-files:read',
	'accounting:read',
	'contracts:payslips:read',
	'health-insurance:read',
	'pension:read',
];

/** The sandbox's registered OAuth2 client that a local n8n uses. */
export const DEFAULT_CLIENT = sandboxClients[0];

export const partnerPayroll: INodeType = new PartnerPayroll();

export interface LoggedRequest {
	time: string;
	method: string;
	path: string;
	query?: IDataObject;
	status: number;
	authorization?: string | null;
	/** The company and the OAuth client of the token the request carried (null when unknown). */
	tokenCompanyId?: string | null;
	tokenClientId?: string | null;
}

/** The n8n Data Tables of the running session: Billing Declaration → Create keeps its record there. */
let sessionDataTables: FakeDataTables | undefined;

/** One sandbox per test file, reached over HTTP like the real service, and the n8n API its record uses. */
export class SandboxSession {
	sandbox!: Sandbox;
	readonly dataTables = new FakeDataTables();

	/** `options`: the sandbox's own start options (registered clients, generated companies). */
	async start(options: Parameters<typeof startSandbox>[0] = {}): Promise<void> {
		this.sandbox = await startSandbox({ port: 0, ...options });
		await this.dataTables.start();
		sessionDataTables = this.dataTables;
	}

	async stop(): Promise<void> {
		await this.dataTables.stop();
		await this.sandbox?.close();
	}

	async control(method: string, path: string, body?: unknown): Promise<unknown> {
		const send = async () =>
			await fetch(`${this.sandbox.url}/_sandbox${path}`, {
				method,
				headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
		// The sandbox closes a connection idle for 5 s; on a loaded machine fetch may reuse it at
		// that very moment (a reset before any answer). The test's own setup call is sent once more.
		const response = await send().catch(async (error: unknown) => {
			if (!/ECONNRESET/.test(String((error as { cause?: unknown }).cause))) throw error;
			return await send();
		});
		if (!response.ok) throw new Error(`sandbox control ${method} ${path}: ${response.status}`);
		const text = await response.text();
		return text ? JSON.parse(text) : undefined;
	}

	async reset(): Promise<void> {
		this.dataTables.reset();
		await this.control('POST', '/reset');
	}

	async token(
		companyId: string,
		scopes: string[] = ALL_SCOPES,
		kind: 'oauth' | 'apiKey' = 'oauth',
	): Promise<string> {
		const issued = (await this.control('POST', '/tokens', { companyId, scopes, kind })) as {
			access_token: string;
		};
		return issued.access_token;
	}

	async requests(): Promise<LoggedRequest[]> {
		return (await this.control('GET', '/requests')) as LoggedRequest[];
	}

	/** API requests since the last clear: the company in the path, the company of the token, the status. */
	async apiRequestCompanies(): Promise<
		Array<{ pathCompany?: string; tokenCompany?: string | null; status: number }>
	> {
		return (await this.requests())
			.filter((request) => request.path.startsWith('/api/'))
			.map((request) => ({
				pathCompany: /\/companies(?:-fr)?\/([^/]+)/.exec(request.path)?.[1],
				tokenCompany: request.tokenCompanyId,
				status: request.status,
			}));
	}

	async clearRequests(): Promise<void> {
		await this.control('DELETE', '/requests');
	}

	async injectFault(fault: IDataObject): Promise<void> {
		await this.control('POST', '/faults', fault);
	}

	/** Requests the signed-storage origin received (where redirect faults with `to: 'other'` point). */
	async storageRequests(): Promise<
		Array<{ method: string; path: string; authorization: string | null }>
	> {
		return (await this.control('GET', '/storage/requests')) as Array<{
			method: string;
			path: string;
			authorization: string | null;
		}>;
	}

	/** Access-token credential; with the authorization server unless told otherwise. */
	accessToken(
		token: string,
		options: { authServer?: boolean; baseUrl?: string } = {},
	): TestCredentials {
		return {
			partnerPayrollApi: {
				baseUrl: options.baseUrl ?? this.sandbox.apiBaseUrl,
				accessToken: token,
				authServerUrl: options.authServer === false ? '' : this.sandbox.authServerUrl,
			},
		};
	}

	/**
	 * The Partner API credential with one row per company: a token of the default client for each,
	 * bound to its company as the connect link stores it (`rows` may change what is stored).
	 */
	async partner(
		companyIds: string[],
		rows: (
			stored: Array<{ companyId: string; label: string; accessToken: string }>,
		) => unknown[] = (stored) => stored,
	): Promise<TestCredentials> {
		const issued = (await this.control(
			'POST',
			'/tokens',
			companyIds.map((companyId) => ({ companyId, scopes: ALL_SCOPES })),
		)) as Array<{ companyId: string; access_token: string }>;
		const stored = issued.map(({ companyId, access_token }) => ({
			companyId,
			label: `Client ${companyId}`,
			accessToken: `${companyId}:${access_token}`,
		}));
		return {
			partnerPayrollPartnerApi: {
				baseUrl: this.sandbox.apiBaseUrl,
				authServerUrl: this.sandbox.authServerUrl,
				clientId: DEFAULT_CLIENT.clientId,
				clientSecret: DEFAULT_CLIENT.clientSecret,
				companies: { company: rows(stored) },
			},
		};
	}

	/** A connected OAuth2 credential, as n8n stores it after the authorization-code flow. */
	oauth2(token: string): TestCredentials {
		return {
			partnerPayrollOAuth2Api: {
				baseUrl: this.sandbox.apiBaseUrl,
				authServerUrl: this.sandbox.authServerUrl,
				clientId: DEFAULT_CLIENT.clientId,
				clientSecret: DEFAULT_CLIENT.clientSecret,
				grantType: 'authorizationCode',
				authentication: 'body',
				oauthTokenData: { access_token: token, token_type: 'bearer' },
			},
		};
	}
}

/** The Authentication parameter that selects the credential a test gives (access token by default). */
export function authenticationFor(credentials: TestCredentials): string {
	if ('partnerPayrollOAuth2Api' in credentials) return 'oAuth2';
	return 'partnerPayrollPartnerApi' in credentials ? 'partnerApi' : 'accessToken';
}

/** Runs the Partner Payroll node with the access-token credential unless the parameters say otherwise. */
export async function runPartnerPayroll(
	parameters: INodeParameters,
	credentials: TestCredentials,
	options: Pick<
		NodeRun,
		'items' | 'continueOnFail' | 'abortSignal' | 'runExecutionData' | 'executeOnce'
	> = {},
): Promise<INodeExecutionData[]> {
	return await runDeclarativeNode(partnerPayroll, {
		parameters: { authentication: authenticationFor(credentials), ...parameters },
		// The record of billing declarations lives in n8n's Data Tables, through n8n's API credential.
		credentials:
			parameters.resource === 'billingDeclaration'
				? { ...sessionDataTables?.credential(), ...credentials }
				: credentials,
		...options,
	});
}

export function sha256(bytes: Buffer): string {
	return createHash('sha256').update(bytes).digest('hex');
}

/** The error a run ends with; fails the test when the run succeeds. */
export async function failureOf(
	promise: Promise<unknown>,
): Promise<Error & { httpCode?: string; description?: string }> {
	try {
		await promise;
	} catch (error) {
		return error as Error;
	}
	throw new Error('expected the run to fail');
}
