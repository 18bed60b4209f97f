/** A local TCP port where nothing listens: connections to it are refused. */
export function closedPort(): Promise<number>;
export function pause(ms: number): Promise<void>;
/** A local server answering every request with `status` and the JSON `body`. */
export function startJsonAnswerServer(
	status: number,
	body: unknown,
): Promise<{ url: string; close(): Promise<void> }>;
