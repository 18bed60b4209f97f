import type {
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';

import { bodyBytes } from '../../../shared/streams';
import { monthFileToItem, type MonthFileKind } from '../monthFile';
import { accountingEntriesFromCsv } from './csv';

const ACCOUNTING_CSV: MonthFileKind = {
	namePrefix: 'accounting',
	extension: '.csv',
	mimeType: 'text/csv',
};

/** Download CSV: the file, and with Parse Lines one item per line as well. */
export async function accountingCsvPostReceive(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const parseLines = this.getNodeParameter('options.parseLines', false) as boolean;
	// The lines need the text: the body is read once, and the same bytes become the file.
	const body = parseLines ? await bodyBytes(response.body) : response.body;
	const fileItem = await monthFileToItem(this, { ...response, body }, ACCOUNTING_CSV);
	if (!parseLines) return [fileItem];
	const entries = accountingEntriesFromCsv((body as Buffer).toString('utf8'));
	if (!entries.length) return [fileItem];
	// One item per line; the file rides on the first one so it can still be mailed or stored.
	return entries.map((entry, index) =>
		index === 0 ? { json: entry, binary: fileItem.binary } : { json: entry },
	);
}
