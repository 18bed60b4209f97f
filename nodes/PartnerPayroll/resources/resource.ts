import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { Connection } from '../../shared/connection';
import { companyIdField } from '../../shared/ids';

/**
 * An operation of the node, in n8n's own shape (Airtable v2's `execute.call(this, ...)`): one input
 * item at a time, its parameters read through `this.getNodeParameter(name, itemIndex)`.
 */
export interface Operation {
	/** The entry of the Operation list: name, value, action (what the nodes panel and AI agents read). */
	option: INodePropertyOptions & { action: string; description: string };
	/** The fields of the operation, shown for it only. */
	fields: INodeProperties[];
	/** Once per run with every input item, before the first: for a write that checks all items first. */
	prepare?(this: IExecuteFunctions, itemIndices: number[], connection: Connection): Promise<void>;
	/** One input item: its output items (the node pairs them with the input item). */
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		connection: Connection,
	): Promise<INodeExecutionData[]>;
	/** Items go one at a time, in order (a write); otherwise several are in flight at once. */
	oneItemAtATime?: boolean;
	/**
	 * Takes no company from the Company field: it works on the Partner API credential's whole list
	 * (Repair Company List), or names a company that may not be in it yet (Create Connect Link). The
	 * field is hidden for it, and the node adds no company fields to its items.
	 */
	withoutCompany?: boolean;
}

/** With the Partner API credential, the company is one of the credential's list (or an expression). */
const partnerCompanyField: INodeProperties = {
	displayName: 'Company Name or ID',
	name: 'companyId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'listPartnerCompanies' },
	required: true,
	default: '',
	description:
		'A company of the credential\'s list. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

/**
 * A resource's Company ID: typed (hidden for `exceptOperations` and `listOperations`), or with the Partner
 * API credential one of its list, whose token the operation uses (hidden for `listOperations` only).
 */
const companyIdFieldsOf = (
	resource: string,
	exceptOperations: string[] = [],
	listOperations: string[] = [],
): INodeProperties[] => {
	const hidden = [...exceptOperations, ...listOperations];
	return [
		{
			...companyIdField,
			displayOptions: {
				show: { resource: [resource] },
				hide: { authentication: ['partnerApi'], ...(hidden.length ? { operation: hidden } : {}) },
			},
		},
		{
			...partnerCompanyField,
			displayOptions: {
				show: { resource: [resource], authentication: ['partnerApi'] },
				...(listOperations.length ? { hide: { operation: listOperations } } : {}),
			},
		},
	];
};

/** The "Options" collection of an operation: what most users leave as it is. */
export const optionsField = (options: INodeProperties[]): INodeProperties => ({
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options,
});

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
			...companyIdFieldsOf(
				value,
				options.withoutCompanyId,
				operations
					.filter((operation) => operation.withoutCompany)
					.map(({ option }) => String(option.value)),
			),
			...operations.flatMap((operation) => operation.fields),
		],
	};
}
