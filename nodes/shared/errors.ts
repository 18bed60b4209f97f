import { NodeApiError, NodeOperationError, type INode } from 'n8n-workflow';

// What the user reads when a request cannot be sent or the request policy gave up (the service's own
// error answers are mapped in apiError.ts); a message that one caller alone gives is written there.

export type CountryCode = 'FR' | 'GB';

/** What the error map needs to know about the operation that failed. */
export interface ErrorContext {
	country?: CountryCode; // the operation serves companies of this country only
	itemIndex?: number;
	effect?: string; // what a write does, e.g. "The billing declaration"
	rateLimitAdvice?: string; // how to space requests out, in the sender's own settings
	timeoutAdvice?: string; // which setting gives a slow answer more time, where the sender has one
	server?: 'authorization'; // the request went to the authorization server (token lookup)
}

const BUDGET_HINT =
	'Attempts and waits of one request stop after {budget} s, and a trigger poll ends within its own, shorter budget. Try again later.';

/** One wording for a revoked token, whether the service (401) or the token lookup says so. */
export const REVOKED_TOKEN = 'The access token is invalid or has been revoked';

/** Failures that sending again cannot mend, with what to do about them: message, description. */
// prettier-ignore
const FAILURES = {
	cancelled: ['The execution was cancelled', ''],
	oAuth2NotConnected: ['The OAuth2 credential is not connected: click Connect',
		'Open the Partner Payroll OAuth2 credential and click "Connect" ("Connect my account" in n8n 2.8); a company administrator logs in and accepts.'],
	hostNotFound: ['Cannot find the server {host}',
		'Check the API Base URL and the Authorization Server URL of the credential, and that n8n can resolve host names.'],
	tls: ['The secure connection to the Partner Payroll API failed',
		'The server certificate was not accepted ({code}). Check the API Base URL (https and host name).'],
	invalidUrl: ['The API Base URL of the credential is not a valid URL',
		'Use the address given by the provider, for example https://api.example.com/v1.'],
	malformedAnswer: ['The Partner Payroll API returned an answer that is not valid JSON',
		'The answer is not in the documented format (for example an HTML page from a proxy). Check the API Base URL of the credential, or try again later.'],
	partnerCompanyMissing: ['Company is empty',
		'With the Partner API credential, each item names its company: choose one of the credential\'s list, or give its ID by an expression.'],
	partnerCompanyList: ['{problem}',
		'The Partner API credential sends a company\'s token only for that company; nothing was sent for this item.'],
	noAuthServer: ['Company ID is empty and the credential has no Authorization Server URL',
		'Either type the Company ID, or set the Authorization Server URL in the credential so the company of the token can be looked up.'],
	inactiveToken: [REVOKED_TOKEN,
		'The authorization server reports the token as revoked or unknown. Reconnect the Partner Payroll credential (the service issues no refresh token, so a revoked or replaced token cannot be renewed automatically).'],
	notAnIntrospection: ['The Authorization Server URL did not answer like an introspection endpoint',
		'The token is looked up at <Authorization Server URL>/introspect, which answered {what} instead of a JSON object with a boolean "active". Check the Authorization Server URL of the credential (in the node, typing the Company ID avoids the lookup).'],
	unexpectedAnswer: ['The Partner Payroll API answered without {expected}',
		'The answer (HTTP {status}) is not in the documented format: it was {got}. Check the API Base URL of the credential, or try again later.'],
	requestBudget: ['The Partner Payroll API did not answer within the time limit of this request ({last})',
		`${BUDGET_HINT} {timeoutAdvice}`],
	pollRequestBudget: ['The Partner Payroll API did not answer within the time budget of this poll ({last})',
		BUDGET_HINT],
	retryAfterTooLong: ['The Partner Payroll API asked to wait {seconds} s before trying again',
		'The service answered with Retry-After: {seconds} s, longer than this node waits between attempts ({maxWait} s). Run it again after that time. {advice}'],
	writeAnswerNotApi: ['{effect} was probably not recorded: the answer is {what}, not the Partner Payroll API',
		'A sign-in page, a proxy or a wrong API Base URL answered with success. Check the API Base URL of the credential, and check with the provider before running again.'],
	notTheFile: ['The Partner Payroll API answered with {what} instead of the file',
		'A sign-in page, a proxy or a wrong API Base URL answered. Check the API Base URL of the credential.'],
	authorizationServerRedirect: ['The authorization server answered with a redirect (HTTP {status})',
		'The token is sent to the Authorization Server URL only, never on to another address. Check the Authorization Server URL of the credential (https, host and path).'],
	pollBudget: ['The poll exceeded its time budget of {seconds} s',
		'The Partner Payroll API answered too slowly. Nothing was stored: the next poll checks the same months and documents again.'],
} satisfies Record<string, [string, string]>;

export type Failure = keyof typeof FAILURES;

const DEFAULT_VALUES: Record<string, string> = { host: 'the host of the API Base URL' };

/** A failure of the table above, its `{placeholders}` filled from `values`. */
export function failureError(
	node: INode,
	failure: Failure,
	values: Record<string, string | number | undefined> = {},
	itemIndex?: number,
): NodeOperationError {
	const fill = (template: string) =>
		template
			.replace(/\{(\w+)\}/g, (_, name: string) =>
				String(values[name] ?? DEFAULT_VALUES[name] ?? ''),
			)
			.trim();
	const [message, description] = FAILURES[failure];
	const error = new NodeOperationError(node, fill(message), {
		itemIndex,
		description: fill(description) || undefined,
	});
	error.context.failure = failure; // read by the trigger's `mayPassLater` and the token lookup
	return error;
}

/** A parameter that fails a local check, before any request, worded by the rule that checks it. */
export function parameterError(
	node: INode,
	message: string,
	options: { itemIndex?: number; description?: string } = {},
): NodeOperationError {
	return new NodeOperationError(node, message, options);
}

/** An error as n8n shows it: the package's own errors as they are, anything else wrapped. */
export function asNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeOperationError | NodeApiError {
	if (error instanceof NodeOperationError || error instanceof NodeApiError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error), {
		itemIndex,
	});
}
