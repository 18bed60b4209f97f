import type { INodeExecutionData } from 'n8n-workflow';

import { fileNamePart, fileToItem } from '../../shared/binary';
import { companyPath } from '../../shared/company';
import { bodyBytes } from '../../shared/streams';
import type { Item } from '../helpers/operation';

// The files of one company and month: the payment file and the accounting CSV.

export interface MonthFileKind {
	/** Below the company: `/payment-files`. */
	path: string;
	namePrefix: string;
	/** Empty where the format is not documented: no extension rather than a wrong one. */
	extension: string;
	mimeType: string;
}

/**
 * GET the month's file; the item is named from the company and month unless the service names it.
 * With `readText`, the body is read once and the same bytes become the file and the text.
 */
export async function downloadMonthFile(
	item: Item,
	kind: MonthFileKind,
	readText = false,
): Promise<{ file: INodeExecutionData; text?: string }> {
	const month = item.month();
	const companyId = await item.companyId();
	const fileName = `${kind.namePrefix}-${fileNamePart(companyId)}-${month}${kind.extension}`;
	return await item.send(
		{ method: 'GET', path: companyPath(companyId, kind.path), qs: { date: month }, file: true },
		async (response) => {
			const body = readText ? await bodyBytes(response.body) : response.body;
			const file = await fileToItem(
				item.context,
				{ ...response, body },
				{ fileName, mimeType: kind.mimeType },
				item.binaryPropertyName(),
				{ companyId, month },
			);
			return { file, text: readText ? (body as Buffer).toString('utf8') : undefined };
		},
	);
}
