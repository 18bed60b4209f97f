import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { parameterError } from '../../../shared/errors';
import type { Operation } from '../resource';

/**
 * Shown only on the tool variant n8n generates for AI agents (`@tool`), and read only there: a
 * regular node declares as it always did. Not an expression, so no model can turn it on through
 * `$fromAI()`.
 */
const allowAgentField: INodeProperties = {
	displayName: 'Allow the Agent to Declare',
	name: 'allowAgentToDeclare',
	type: 'boolean',
	default: false,
	noDataExpression: true,
	displayOptions: {
		show: { '@tool': [true], resource: ['billingDeclaration'], operation: ['create'] },
	},
	description:
		"Whether the AI agent may send billing declarations through this tool. Off, each call is refused with an error the model reads, and nothing is sent. Put the tool behind n8n's human review so that a person approves each declaration.",
};

/**
 * n8n runs a node as an agent's tool under the tool variant of its type, whose name ends with
 * "Tool" (`partnerPayrollTool`); n8n's own `@tool` display option tells the two apart by that rule.
 */
const runsAsAgentTool = (context: IExecuteFunctions) => context.getNode().type.endsWith('Tool');

/** Whether this run is an agent's tool call that the tool node does not allow to declare. */
const refusedToAgent = (context: IExecuteFunctions, itemIndex: number) =>
	runsAsAgentTool(context) &&
	context.getNodeParameter(allowAgentField.name, itemIndex, false) !== true;

/**
 * What the model reads (the item's `error` with the tool's On Error set to continue), and what the
 * person who built the workflow reads in the execution.
 */
const refusal = (context: IExecuteFunctions, itemIndex: number) =>
	parameterError(
		context.getNode(),
		`Writes are not allowed for this tool: Billing Declaration → Create needs the option "${allowAgentField.displayName}" of the tool node. Nothing was sent.`,
		{
			itemIndex,
			description: `Turn on "${allowAgentField.displayName}" in the tool node "${context.getNode().name}" to let the agent declare, and put the tool behind n8n's human review (a human-in-the-loop tool between it and the agent) so that a person approves each declaration.`,
		},
	);

/**
 * The operation as an agent's tool may run it: refused before any of its own steps (checks, ledger,
 * request) unless the tool node allows it; unchanged in a regular node.
 */
export function askedBeforeAgentWrites(operation: Operation): Operation {
	return {
		...operation,
		fields: [...operation.fields, allowAgentField],
		async prepare(itemIndices, connection) {
			if (refusedToAgent(this, 0)) return;
			await operation.prepare?.call(this, itemIndices, connection);
		},
		async execute(itemIndex, connection) {
			if (refusedToAgent(this, itemIndex)) throw refusal(this, itemIndex);
			return await operation.execute.call(this, itemIndex, connection);
		},
	};
}
