import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { parameterError } from '../../shared/errors';
import type { Operation } from './resource';

/** An operation that changes something, and the tool node's permission an agent needs to run it. */
export interface AgentWrite {
	resource: { value: string; name: string };
	/** The tool-only boolean that allows it. */
	permission: { name: string; displayName: string };
	/** What the agent may do when allowed ("send billing declarations"). */
	action: string;
	/** What a person approves behind n8n's human review ("each declaration"). */
	approves: string;
	/** What a refusal leaves alone ("sent", "changed"). */
	untouched: string;
}

/**
 * Shown only on the tool variant n8n generates for AI agents (`@tool`), and read only there: a
 * regular node runs as it always did. Not an expression, so no model can turn it on through
 * `$fromAI()`.
 */
const permissionField = (operation: Operation, write: AgentWrite): INodeProperties => ({
	...write.permission,
	type: 'boolean',
	default: false,
	noDataExpression: true,
	displayOptions: {
		show: {
			'@tool': [true],
			resource: [write.resource.value],
			operation: [operation.option.value as string],
		},
	},
	description: `Whether the AI agent may ${write.action} through this tool. Off, each call is refused with an error the model reads, and nothing is ${write.untouched}. Put the tool behind n8n's human review so that a person approves ${write.approves}.`,
});

/**
 * n8n runs a node as an agent's tool under the tool variant of its type, whose name ends with
 * "Tool" (`partnerPayrollTool`); n8n's own `@tool` display option tells the two apart by that rule.
 */
const runsAsAgentTool = (context: IExecuteFunctions) => context.getNode().type.endsWith('Tool');

/**
 * The operation as an agent's tool may run it: refused before any of its own steps (checks, records,
 * requests) unless the tool node allows it; unchanged in a regular node. The refusal is what the
 * model reads (the item's `error` with the tool's On Error set to continue), and what the person who
 * built the workflow reads in the execution.
 */
export function askedBeforeAgentWrites(operation: Operation, write: AgentWrite): Operation {
	const { displayName, name } = write.permission;
	const refused = (context: IExecuteFunctions, itemIndex: number) =>
		runsAsAgentTool(context) && context.getNodeParameter(name, itemIndex, false) !== true;
	const refusal = (context: IExecuteFunctions, itemIndex: number) =>
		parameterError(
			context.getNode(),
			`Writes are not allowed for this tool: ${write.resource.name} → ${operation.option.name} needs the option "${displayName}" of the tool node. Nothing was ${write.untouched}.`,
			{
				itemIndex,
				description: `Turn on "${displayName}" in the tool node "${context.getNode().name}" to let the agent ${write.action}, and put the tool behind n8n's human review (a human-in-the-loop tool between it and the agent) so that a person approves ${write.approves}.`,
			},
		);
	const { prepare } = operation;
	return {
		...operation,
		fields: [...operation.fields, permissionField(operation, write)],
		...(prepare && {
			async prepare(itemIndices, connection) {
				if (!refused(this, 0)) await prepare.call(this, itemIndices, connection);
			},
		}),
		async execute(itemIndex, connection) {
			if (refused(this, itemIndex)) throw refusal(this, itemIndex);
			return await operation.execute.call(this, itemIndex, connection);
		},
	};
}
