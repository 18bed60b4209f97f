import type { IDataObject, IExecuteFunctions, IN8nHttpFullResponse } from 'n8n-workflow';

import { unexpectedAnswerError } from '../../shared/apiError';
import { isObject } from '../../shared/bodies';

// What an operation reads from a JSON answer, checked: a downstream node always gets objects.

/** The answer's JSON object (a record, a status). */
export function objectAnswer(
	context: IExecuteFunctions,
	itemIndex: number,
	response: IN8nHttpFullResponse,
): IDataObject {
	if (isObject(response.body)) return response.body;
	throw unexpectedAnswerError(context.getNode(), response, 'a JSON object', itemIndex);
}

/** The answer's list of objects: the body itself, or the array under `key` (`documents`, `contracts`). */
export function listAnswer(
	context: IExecuteFunctions,
	itemIndex: number,
	response: IN8nHttpFullResponse,
	key?: string,
): IDataObject[] {
	const list = key === undefined ? response.body : isObject(response.body) && response.body[key];
	const expected = key === undefined ? 'a JSON array of objects' : `a "${key}" list`;
	if (!Array.isArray(list) || !list.every(isObject)) {
		throw unexpectedAnswerError(context.getNode(), response, expected, itemIndex);
	}
	return list;
}

/** One output item per listed object. */
export const asItems = (list: IDataObject[]) => list.map((json) => ({ json }));
