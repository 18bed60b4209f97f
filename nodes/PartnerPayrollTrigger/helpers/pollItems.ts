import type { INodeExecutionData } from 'n8n-workflow';

import { documentDedupeKey, payrollDedupeKey } from '../../shared/dedupeKeys';
import { readableMonth } from '../../shared/month';
import type { ListedDocument } from './documentState';
import type { PayrollStatusAnswer } from '../../shared/payrollStatus';

export interface PayrollItemContext {
	companyId: string;
	/** The zone "current" and "previous" were computed in; shown so nobody has to guess. */
	timeZone: string;
}

export function payrollItem(
	context: PayrollItemContext,
	month: string,
	answer: PayrollStatusAnswer,
	isRerun = false,
): INodeExecutionData {
	return {
		json: {
			companyId: context.companyId,
			month,
			monthName: readableMonth(month),
			status: answer.status,
			executionEndDate: answer.executionEndDate,
			timeZone: context.timeZone,
			// Always present, so later nodes can rely on the shape.
			isRerun,
			dedupeKey: payrollDedupeKey(
				context.companyId,
				month,
				isRerun ? answer.executionEndDate : null,
			),
			source: 'poll',
		},
	};
}

/** The listing's fields as the API gave them, with the company and the listing it came from. */
export function documentItem(companyId: string, document: ListedDocument): INodeExecutionData {
	const { documentType, ...fields } = document;
	return {
		json: {
			companyId,
			documentType,
			...fields,
			dedupeKey: documentDedupeKey(companyId, document.documentId),
			source: 'poll',
		},
	};
}

/** With the Partner API credential: the item names the company's label too, right after its id. */
export function withLabel(item: INodeExecutionData, label: string): INodeExecutionData {
	const { companyId, ...fields } = item.json;
	return { ...item, json: { companyId, label, ...fields } };
}
