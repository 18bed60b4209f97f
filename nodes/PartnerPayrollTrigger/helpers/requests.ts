import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

import { PartnerPayrollApiError, RETRYABLE_STATUSES } from '../../shared/apiError';
import type { Connection } from '../../shared/connection';
import { failureError, type Failure } from '../../shared/errors';
import { isObject } from '../../shared/bodies';
import { apiRequest } from '../../shared/transport';
import type { DocumentType, ListedDocument } from './documentState';

// The trigger's requests, all through the shared transport (retry on 429/5xx, one error map).

export const TRIGGER_RATE_LIMIT_ADVICE =
	'Poll less often: raise Poll Times of this trigger, or watch fewer months or document types.';

/** Failures that mean "not now": the same request may pass later. */
const PASSING_FAILURES: Failure[] = [
	'requestBudget',
	'pollRequestBudget',
	'pollBudget',
	'retryAfterTooLong',
];

/**
 * Whether a request that finally failed may pass later (a later poll tries it again): a 429 or 5xx
 * after every attempt, no complete answer, or time that ran out. A 4xx other than 429 and an answer
 * that is not the service's are permanent.
 */
export function mayPassLater(error: unknown): boolean {
	if (error instanceof PartnerPayrollApiError) {
		return !error.httpCode || RETRYABLE_STATUSES.includes(Number(error.httpCode));
	}
	return (
		error instanceof NodeOperationError &&
		PASSING_FAILURES.includes(error.context.failure as Failure)
	);
}

/** The company's country (FR, ES, GB), from its record: New Document watches UK companies only. */
export async function fetchCompanyCountry(
	context: IPollFunctions,
	connection: Connection,
	companyId: string,
): Promise<string> {
	const { body } = await apiRequest(context, connection, {
		method: 'GET',
		companyId,
		path: '',
	});
	if (!isObject(body) || typeof body.country !== 'string') {
		throw failureError(context.getNode(), 'malformedAnswer');
	}
	return body.country;
}

const LISTING_PATHS: Record<DocumentType, string> = {
	autoEnrolment: '/auto-enrolment-documents',
	incomeTax: '/income-taxes-documents',
};

export async function listDocuments(
	context: IPollFunctions,
	connection: Connection,
	companyId: string,
	documentType: DocumentType,
): Promise<ListedDocument[]> {
	const { body } = await apiRequest(
		context,
		connection,
		{ method: 'GET', companyId, path: LISTING_PATHS[documentType] },
		{ country: 'GB' },
	);
	const documents = isObject(body) ? body.documents : undefined;
	if (
		!Array.isArray(documents) ||
		!documents.every((document) => isObject(document) && typeof document.documentId === 'string')
	) {
		throw failureError(context.getNode(), 'malformedAnswer');
	}
	return (documents as IDataObject[]).map((document) => ({
		...document,
		documentType,
		documentId: String(document.documentId),
		createdAt: String(document.createdAt ?? ''),
	}));
}
