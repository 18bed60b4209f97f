export const SVIX_TEST_VECTOR: {
	secret: string;
	id: string;
	timestamp: number;
	body: string;
	signature: string;
};
export const ENDPOINT_SECRET: string;
export const TEST_URL_ENDPOINT_SECRET: string;
export function svixSign(
	secret: string,
	id: string,
	timestamp: number | string,
	body: string,
): string;
export class FakeResponse {
	statusCode: number;
	headers: Record<string, string>;
	body: unknown;
	setHeader(name: string, value: string): void;
	status(code: number): this;
	json(body: unknown): this;
	once(event: string, listener: () => void): this;
	senderGaveUp(): void;
	answer(status: number): void;
}
