import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../helpers/operation';
import { companyIdFieldsOf } from './commonFields';

/** A resource of the node: its operations by value, and the fields they show. */
export interface Resource {
	value: string;
	name: string;
	operations: Record<string, Operation>;
	properties: INodeProperties[];
}

/** The Operation list of a resource (in the order given, sorted by name), its Company ID, and each operation's fields. */
export function resource(
	value: string,
	name: string,
	operations: Operation[],
	defaultOperation: string,
	options: { withoutCompanyId?: string[] } = {},
): Resource {
	return {
		value,
		name,
		operations: Object.fromEntries(
			operations.map((operation) => [operation.option.value, operation]),
		),
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: [value] } },
				options: operations.map((operation) => operation.option),
				default: defaultOperation,
			},
			...companyIdFieldsOf(value, options.withoutCompanyId),
			...operations.flatMap((operation) => operation.fields),
		],
	};
}
