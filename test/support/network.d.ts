/** A local TCP port where nothing listens: connections to it are refused. */
export function closedPort(): Promise<number>;
export function pause(ms: number): Promise<void>;
