import type { Connection, RequestContext } from './connection';
import { failureError } from './errors';
import { isObject } from './bodies';
import { apiRequest } from './transport';

// A month's payroll status, read by the Partner Payroll Trigger at each poll and by the Connect
// trigger for a newly connected company.

/** A payroll-status answer of the API. */
export interface PayrollStatusAnswer {
	status: string;
	executionEndDate: string | null;
}

export async function fetchPayrollStatus(
	context: RequestContext,
	connection: Connection,
	companyId: string,
	month: string,
): Promise<PayrollStatusAnswer> {
	const { body } = await apiRequest(context, connection, {
		method: 'GET',
		companyId,
		path: '/payroll-status',
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
