export interface IssuedToken {
	access_token: string;
	token_type: string;
}

export interface Sandbox {
	url: string;
	apiBaseUrl: string;
	authServerUrl: string;
	/** The signed-storage origin that redirect faults with `to: 'other'` point to. */
	storageUrl: string;
	port: number;
	close(): Promise<void>;
	reset(): void;
	issueToken(options: {
		companyId: string;
		scopes: string[];
		clientId?: string;
		kind?: 'oauth' | 'apiKey';
	}): IssuedToken;
	seed: {
		paymentFile(companyId: string, month: string): Buffer;
		accountingCsv(companyId: string, month: string): Buffer;
		document(companyId: string, documentId: string): Buffer;
		[key: string]: unknown;
	};
}

export function startSandbox(options?: {
	port?: number;
	host?: string;
	accountingLines?: number;
	paymentFileBytes?: number;
	codeTtlMs?: number;
	/** Generated client companies after the seeded ones (FR5001, ES6001, GB7001, …). */
	generatedCompanies?: number;
}): Promise<Sandbox>;
