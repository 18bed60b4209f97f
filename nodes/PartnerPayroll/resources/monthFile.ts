import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { binaryPropertyNameOf, fileNamePart, fileToItem } from '../../shared/binary';
import type { Connection } from '../../shared/connection';
import type { ErrorContext } from '../../shared/errors';
import { bodyBytes } from '../../shared/bodies';
import { apiRequest } from '../../shared/transport';
import { itemCompanyId } from '../helpers/itemCompany';
import { monthOf } from '../../shared/month';

// The files of one company and month: the payment file and the accounting CSV.

export interface MonthFileKind {
	/** Below the company: `/payment-files`. */
	path: string;
	namePrefix: string;
	/** Empty where the format is not documented: no extension rather than a wrong one. */
	extension: string;
	mimeType: string;
	/** What the operation's errors need to know about it. */
	errorContext: ErrorContext;
}

/**
 * GET the month's file; the item is named from the company and month unless the service names it.
 * With `readText`, the body is read once and the same bytes become the file and the text.
 */
export async function downloadMonthFile(
	context: IExecuteFunctions,
	itemIndex: number,
	connection: Connection,
	kind: MonthFileKind,
	readText = false,
): Promise<{ file: INodeExecutionData; text?: string }> {
	const month = monthOf(context, itemIndex);
	const companyId = await itemCompanyId(context, itemIndex, connection);
	const fileName = `${kind.namePrefix}-${fileNamePart(companyId)}-${month}${kind.extension}`;
	return await apiRequest(
		context,
		connection,
		{ method: 'GET', companyId, path: kind.path, qs: { date: month }, file: true },
		{ ...kind.errorContext, itemIndex },
		async (response) => {
			const body = readText ? await bodyBytes(response.body) : response.body;
			const file = await fileToItem(
				context,
				{ ...response, body },
				{ fileName, mimeType: kind.mimeType },
				binaryPropertyNameOf(context, itemIndex),
				{ companyId, month },
			);
			return { file, text: readText ? (body as Buffer).toString('utf8') : undefined };
		},
	);
}
