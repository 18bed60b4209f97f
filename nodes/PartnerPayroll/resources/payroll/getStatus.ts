import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { objectAnswer } from '../../helpers/answers';
import { itemCompanyId } from '../../helpers/itemCompany';
import type { Operation } from '../resource';
import { monthField, monthOf } from '../../../shared/month';

/** GET /companies/{companyId}/payroll-status?date=YYYYMM: the status, with the company and month it answers for. */
export const getStatus: Operation = {
	option: {
		name: 'Get Status',
		value: 'getStatus',
		action: 'Get the payroll status of a month',
		description:
			'Whether the payroll of a month is completed, and when its last run ended, with the company and month',
	},
	fields: updateDisplayOptions({ show: { resource: ['payroll'], operation: ['getStatus'] } }, [
		monthField,
	]),
	async execute(itemIndex, connection) {
		const month = monthOf(this, itemIndex);
		const companyId = await itemCompanyId(this, itemIndex, connection);
		const response = await apiRequest(
			this,
			connection,
			{ method: 'GET', companyId, path: '/payroll-status', qs: { date: month } },
			{ itemIndex },
		);
		const status = objectAnswer(this, itemIndex, response);
		return [
			{
				json: {
					companyId,
					month,
					status: status.status,
					executionEndDate: status.executionEndDate ?? null,
				},
			},
		];
	},
};
