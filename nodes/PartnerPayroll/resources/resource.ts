import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { Connection } from '../../shared/connection';
import type { ErrorContext } from '../../shared/errors';
import { companyIdFieldsOf } from './commonFields';

/**
 * An operation of the node, in n8n's own shape (Airtable v2's `execute.call(this, ...)`): one input
 * item at a time, its parameters read through `this.getNodeParameter(name, itemIndex)`.
 */
export interface Operation {
	/** The entry of the Operation list: name, value, action (what the nodes panel and AI agents read). */
	option: INodePropertyOptions & { action: string; description: string };
	/** The fields of the operation, shown for it only. */
	fields: INodeProperties[];
	/**
	 * Runs once per run of the node with every input item, before the first item is executed: only
	 * where a write must check all items before it sends any.
	 */
	prepare?(this: IExecuteFunctions, itemIndices: number[], connection: Connection): Promise<void>;
	/** One input item: its output items (the node pairs them with the input item). */
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		connection: Connection,
	): Promise<INodeExecutionData[]>;
	/** What the operation's errors need to know about it. */
	errorContext?: ErrorContext;
	/** Items go one at a time, in order (a write); otherwise several are in flight at once. */
	oneItemAtATime?: boolean;
	/**
	 * Its items name their company themselves, a company that may not be in the credential's list
	 * yet (a connect link's invitation): the node adds no company fields to them.
	 */
	namesItsCompany?: boolean;
}

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
	options: { withoutCompanyId?: string[]; withoutListedCompany?: string[] } = {},
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
			...companyIdFieldsOf(value, options.withoutCompanyId, options.withoutListedCompany),
			...operations.flatMap((operation) => operation.fields),
		],
	};
}
