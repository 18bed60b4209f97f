export interface StubRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string | string[] | undefined>;
	/** The request body as text ('' when none). */
	body: string;
}

export type StubAnswer =
	| { status: number; json?: unknown; bytes?: Buffer; headers?: Record<string, string> }
	| { reset: true };

/** A local HTTP server whose every answer `handle` decides. */
export function startStubService(
	handle: (request: StubRequest) => Promise<StubAnswer> | StubAnswer,
): Promise<{ url: string; close(): Promise<void> }>;
