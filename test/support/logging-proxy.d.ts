export interface LoggedProxyRequest {
	method: string;
	/** The absolute request target (`http://127.0.0.1:1234/api/v1/...`), or `host:port` for CONNECT. */
	url: string;
}

export interface LoggingProxy {
	/** `http://127.0.0.1:<port>`: what to give a client as its http(s) proxy. */
	url: string;
	port: number;
	/** Every request received so far, in order (copies). */
	requests(): LoggedProxyRequest[];
	clear(): void;
	close(): Promise<void>;
}

/** A forward proxy (absolute-URI requests and CONNECT tunnels) that logs what goes through it. */
export function startLoggingProxy(options?: {
	port?: number;
	host?: string;
}): Promise<LoggingProxy>;
