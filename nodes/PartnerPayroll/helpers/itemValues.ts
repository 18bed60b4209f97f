import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { resolveCompanyId } from '../../shared/company';
import { readConnection, type Connection, type RequestOptions } from '../../shared/connection';
import { NODE_RATE_LIMIT_ADVICE } from '../../shared/errors';
import { checkedId } from '../../shared/ids';
import { normalizeMonth } from '../../shared/month';

// What the hooks of one item read: the connection and the token's company once per execution, the
// item's own parameters every time they are asked for.

// Items run concurrently; the node context object is shared by the items of one execution only,
// so it scopes the credential read and the token's company lookup to "once per execution".
function oncePerExecution<T>(
	compute: (context: IExecuteSingleFunctions) => Promise<T>,
): (context: IExecuteSingleFunctions) => Promise<T> {
	const byExecution = new WeakMap<object, Promise<T>>();
	return async (context) => {
		const executionScope = context.getContext('node');
		let value = byExecution.get(executionScope);
		if (!value) {
			value = compute(context);
			byExecution.set(executionScope, value);
			// A failure is not remembered: a later item, or a later run in a loop, tries again.
			value.catch(() => {
				if (byExecution.get(executionScope) === value) byExecution.delete(executionScope);
			});
		}
		return await value;
	};
}

/** The node's credential and Request Options, read once per execution (as n8n reads the options). */
export const connectionOf = oncePerExecution(
	async (context): Promise<Connection> =>
		await readConnection(context, {
			rateLimitAdvice: NODE_RATE_LIMIT_ADVICE,
			requestOptions: context.getNodeParameter('requestOptions', {}) as RequestOptions,
		}),
);

/** The company of the token, looked up once per execution. */
const companyOfToken = oncePerExecution(
	async (context) => await resolveCompanyId(context, await connectionOf(context), ''),
);

/** The Company ID typed for this item, empty for the company of the token. */
export function typedCompanyIdOf(context: IExecuteSingleFunctions): string {
	const typed = String(context.getNodeParameter('companyId', '') ?? '').trim();
	return typed && checkedId(typed, 'Company ID', context.getNode(), context.getItemIndex());
}

export async function companyIdOf(context: IExecuteSingleFunctions): Promise<string> {
	return typedCompanyIdOf(context) || (await companyOfToken(context));
}

/** The item's Month as YYYYMM, or an error that names the field. */
export function monthOf(
	context: IExecuteSingleFunctions,
	field = { name: 'month', displayName: 'Month' },
): string {
	return normalizeMonth(
		context.getNodeParameter(field.name, ''),
		field,
		context.getNode(),
		context.getItemIndex(),
	);
}

/** The binary field a downloaded file goes to (`data` when left empty). */
export function binaryPropertyNameOf(
	context: IExecuteSingleFunctions,
	parameterName = 'binaryPropertyName',
): string {
	return String(context.getNodeParameter(parameterName, 'data')).trim() || 'data';
}
