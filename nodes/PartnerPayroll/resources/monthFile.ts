import type {
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';

import { fileNamePart, fileToItem } from '../../shared/binary';
import { binaryPropertyNameOf, companyIdOf, monthOf } from '../helpers/itemValues';

// The files of one company and month: the payment file and the accounting CSV.

export interface MonthFileKind {
	namePrefix: string;
	/** Empty where the format is not documented: no extension rather than a wrong one. */
	extension: string;
	mimeType: string;
}

/** The file item, named from the company and month unless the service names it, with both as metadata. */
export async function monthFileToItem(
	context: IExecuteSingleFunctions,
	response: IN8nHttpFullResponse,
	kind: MonthFileKind,
): Promise<INodeExecutionData> {
	const companyId = await companyIdOf(context);
	const month = monthOf(context);
	const fileName = `${kind.namePrefix}-${fileNamePart(companyId)}-${month}${kind.extension}`;
	return await fileToItem(
		context,
		response,
		{ fileName, mimeType: kind.mimeType },
		binaryPropertyNameOf(context),
		{ companyId, month },
	);
}
