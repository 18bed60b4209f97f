import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { companyPath } from '../../shared/company';
import type { Connection } from '../../shared/connection';
import { failureError } from '../../shared/errors';
import { isObject } from '../../shared/objects';
import { apiRequest } from '../../shared/transport';
import type { DocumentType, ListedDocument } from './documentState';
import type { PayrollStatusAnswer } from './payrollState';

// The trigger's requests, all through the shared transport (retry on 429/5xx, one error map).

export async function fetchPayrollStatus(
	context: IPollFunctions,
	connection: Connection,
	companyId: string,
	month: string,
): Promise<PayrollStatusAnswer> {
	const { body } = await apiRequest(context, connection, {
		method: 'GET',
		path: companyPath(companyId, '/payroll-status'),
		qs: { date: month },
	});
	// A garbled answer must fail the poll, not read as "not completed".
	if (!isObject(body) || typeof body.status !== 'string') {
		throw failureError(context.getNode(), 'malformedAnswer');
	}
	return {
		status: body.status,
		executionEndDate: typeof body.executionEndDate === 'string' ? body.executionEndDate : null,
	};
}

/** The company's country (FR, ES, GB), from its record: New Document watches UK companies only. */
export async function fetchCompanyCountry(
	context: IPollFunctions,
	connection: Connection,
	companyId: string,
): Promise<string> {
	const { body } = await apiRequest(context, connection, {
		method: 'GET',
		path: companyPath(companyId),
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
		{ method: 'GET', path: companyPath(companyId, LISTING_PATHS[documentType]) },
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
