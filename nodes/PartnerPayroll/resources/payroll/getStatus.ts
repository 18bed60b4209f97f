import { updateDisplayOptions } from 'n8n-workflow';

import { companyPath } from '../../../shared/company';
import { objectAnswer } from '../../helpers/answers';
import { forEachItem, type Operation } from '../../helpers/operation';
import { monthField } from '../commonFields';

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
	start: forEachItem(async (item) => {
		const month = item.month();
		const companyId = await item.companyId();
		const status = objectAnswer(
			item,
			await item.send({
				method: 'GET',
				path: companyPath(companyId, '/payroll-status'),
				qs: { date: month },
			}),
		);
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
	}),
};
