import { NodeApiError, type IN8nHttpFullResponse } from 'n8n-workflow';

import { askedWaitMs } from './rateLimit';

/** An error of the API or of the way to it: may the same request succeed again, and after what wait. */
export class PartnerPayrollApiError extends NodeApiError {
	retryable = false;

	retryAfterMs?: number;
}

const RETRYABLE_STATUSES = [429, 500, 502, 503, 504];

/** An error answer may succeed when sent again after a 429 or a 5xx, after the wait the service asks for. */
export function withRetryFacts(
	error: PartnerPayrollApiError,
	response: IN8nHttpFullResponse,
): PartnerPayrollApiError {
	error.retryable = RETRYABLE_STATUSES.includes(response.statusCode);
	if (error.retryable) error.retryAfterMs = askedWaitMs(response);
	return error;
}
