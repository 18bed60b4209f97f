import { ExecuteContext, PollContext, RoutingNode, SupplyDataContext } from 'n8n-core';
import {
	ICredentialsHelper,
	NodeHelpers,
	Workflow,
	createRunExecutionData,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type IRunExecutionData,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { PartnerPayrollApi } from '../../credentials/PartnerPayrollApi.credentials';
import { PartnerPayrollN8nApi } from '../../credentials/PartnerPayrollN8nApi.credentials';
import { PartnerPayrollOAuth2Api } from '../../credentials/PartnerPayrollOAuth2Api.credentials';
import { PartnerPayrollPartnerApi } from '../../credentials/PartnerPayrollPartnerApi.credentials';

const credentialTypes: Record<string, ICredentialType> = {
	partnerPayrollApi: new PartnerPayrollApi(),
	partnerPayrollOAuth2Api: new PartnerPayrollOAuth2Api(),
	partnerPayrollPartnerApi: new PartnerPayrollPartnerApi(),
	partnerPayrollN8nApi: new PartnerPayrollN8nApi(),
};

export type TestCredentials = Record<string, ICredentialDataDecryptedObject>;

/** Plays n8n's credentials helper: returns the test data and applies a credential's function authentication as n8n does. */
class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly credentials: TestCredentials) {
		super();
	}

	getParentTypes(name: string): string[] {
		return credentialTypes[name]?.extends ?? [];
	}

	// Function authentication only, as n8n's CredentialsHelper calls it: the Access Token credential
	// uses one, and the OAuth2 credential's requests are signed by n8n's OAuth2 helper instead.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const authenticate = credentialTypes[typeName]?.authenticate;
		return typeof authenticate === 'function'
			? await authenticate(credentials, requestOptions)
			: requestOptions;
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	getCredentialsProperties() {
		return [];
	}

	async getDecrypted(_additionalData: unknown, _nodeCredentials: unknown, type: string) {
		return this.credentials[type];
	}

	async getCredentials(): Promise<never> {
		throw new Error('not used in tests');
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}
}

export interface NodeRun {
	/** Node parameters as in a workflow; unset ones get the node's defaults. */
	parameters: INodeParameters;
	credentials: TestCredentials;
	items?: INodeExecutionData[];
	continueOnFail?: boolean;
	nodeName?: string;
	/** The execution's cancel signal, as n8n passes it when the user stops an execution. */
	abortSignal?: AbortSignal;
	/**
	 * The execution the node runs in: pass the same object to run the node again within one
	 * execution, as n8n's Retry On Fail or a loop does (the node context lives there).
	 */
	runExecutionData?: IRunExecutionData;
	/** Settings → Execute Once: n8n runs the node with the first item only, its input data unchanged. */
	executeOnce?: boolean;
}

function buildNode(nodeType: INodeType, run: NodeRun): INode {
	const node: INode = {
		id: 'test-node',
		name: run.nodeName ?? nodeType.description.defaults.name ?? 'Node',
		type: `n8n-nodes-partner-payroll.${nodeType.description.name}`,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: Object.fromEntries(
			Object.keys(run.credentials).map((type) => [type, { id: `${type}-id`, name: type }]),
		),
		onError: run.continueOnFail ? 'continueRegularOutput' : undefined,
	};
	node.parameters =
		NodeHelpers.getNodeParameters(
			nodeType.description.properties,
			run.parameters,
			true,
			false,
			node,
			nodeType.description,
		) ?? {};
	return node;
}

function buildWorkflow(
	nodeType: INodeType,
	node: INode,
	staticData: IDataObject = {},
	timezone?: string,
): Workflow {
	return new Workflow({
		id: 'test-workflow',
		nodes: [node],
		connections: {},
		active: false,
		staticData,
		settings: timezone ? { timezone } : {},
		nodeTypes: {
			getByName: () => nodeType,
			getByNameAndVersion: () => nodeType,
			getKnownTypes: () => ({}),
		},
	});
}

let executions = 0;
/** The execution of each run data: runs given the same run data are one execution (Retry On Fail). */
const executionIds = new WeakMap<IRunExecutionData, string>();

export function additionalDataFor(
	credentials: TestCredentials,
	runExecutionData?: IRunExecutionData,
): IWorkflowExecuteAdditionalData {
	// Every run is an execution of its own, as in n8n, unless it goes on with an execution's run data.
	let executionId = runExecutionData && executionIds.get(runExecutionData);
	if (!executionId) {
		executionId = String(++executions);
		if (runExecutionData) executionIds.set(runExecutionData, executionId);
	}
	return {
		credentialsHelper: new TestCredentialsHelper(credentials),
		executionId,
	} as unknown as IWorkflowExecuteAdditionalData;
}

/**
 * Runs a node as n8n does for one node execution: its own `execute()` when it has one, else
 * n8n-core's routing engine (a declarative node, a credential's test request).
 */
export async function runDeclarativeNode(
	nodeType: INodeType,
	run: NodeRun,
): Promise<INodeExecutionData[]> {
	const node = buildNode(nodeType, run);
	const workflow = buildWorkflow(nodeType, node);
	const items = run.items ?? [{ json: {} }];
	const runExecutionData = run.runExecutionData ?? createRunExecutionData();
	const context = new ExecuteContext(
		workflow,
		node,
		additionalDataFor(run.credentials, runExecutionData),
		'manual',
		runExecutionData,
		0,
		items,
		{ main: [run.executeOnce ? items.slice(0, 1) : items] },
		{ node, data: { main: [items] }, source: null },
		[],
		run.abortSignal,
	);
	const output = nodeType.execute
		? ((await nodeType.execute.call(context)) as INodeExecutionData[][])
		: await new RoutingNode(context, nodeType).runNode();
	return output?.[0] ?? [];
}

/**
 * The tool variant n8n generates of a node that is `usableAsTool`, as far as the node can see it: the
 * same `execute()` under the type name with "Tool" appended (`partnerPayrollTool`), which is also what
 * n8n's `@tool` display option reads.
 */
function toolVariantOf(nodeType: INodeType): INodeType {
	const description = { ...nodeType.description, name: `${nodeType.description.name}Tool` };
	return Object.assign(Object.create(nodeType) as INodeType, { description });
}

/** Whether n8n's editor shows a property of the node, with these parameters, on its tool variant and on the node itself. */
export function shownOnToolAndNode(
	nodeType: INodeType,
	propertyName: string,
	parameters: INodeParameters,
): { tool: boolean; node: boolean } {
	const property = nodeType.description.properties.find(({ name }) => name === propertyName);
	if (!property) throw new Error(`no property ${propertyName}`);
	const shownOn = (description: INodeType['description']) =>
		NodeHelpers.displayParameter(parameters, property, null, description);
	return {
		tool: shownOn(toolVariantOf(nodeType).description),
		node: shownOn(nodeType.description),
	};
}

/**
 * Runs a node as an AI Agent's tool, as n8n-core's tool invocation does: the node's `execute()`, under
 * its tool variant's type, in a sub-node context whose input is the model's arguments (connection type
 * ai_tool). `continueOnFail`: the tool node's On Error set to continue, as recommended for agents.
 */
export async function runAsTool(
	nodeType: INodeType,
	run: Pick<NodeRun, 'parameters' | 'credentials' | 'continueOnFail'> & {
		toolArguments: IDataObject;
	},
): Promise<INodeExecutionData[]> {
	const toolType = toolVariantOf(nodeType);
	const node = buildNode(toolType, run);
	const workflow = buildWorkflow(toolType, node);
	const items = [{ json: run.toolArguments }];
	const context = new SupplyDataContext(
		workflow,
		node,
		additionalDataFor(run.credentials),
		'manual',
		createRunExecutionData(),
		0,
		items,
		{ ai_tool: [items] },
		'ai_tool',
		{ node, data: { ai_tool: [items] }, source: null },
		[],
	);
	// As n8n-core does: the sub-node context stands in for the execute functions.
	const output = (await toolType.execute!.call(
		context as unknown as IExecuteFunctions,
	)) as INodeExecutionData[][];
	return output?.[0] ?? [];
}

export interface Poller {
	poll(mode?: 'trigger' | 'manual'): Promise<INodeExecutionData[][] | null>;
	staticData: IDataObject;
}

/** Builds a poller whose static data survives between polls, as in an active workflow. */
export function createPoller(
	nodeType: INodeType,
	run: NodeRun & { timezone?: string; staticData?: IDataObject },
): Poller {
	const node = buildNode(nodeType, run);
	const staticData = run.staticData ?? {};
	const workflow = buildWorkflow(nodeType, node, staticData, run.timezone);
	const additionalData = additionalDataFor(run.credentials);
	return {
		staticData: workflow.staticData,
		async poll(mode = 'trigger') {
			const context = new PollContext(workflow, node, additionalData, mode, 'activate');
			return await nodeType.poll!.call(context);
		},
	};
}

/** The bytes of a binary property, whichever binary data mode n8n-core uses. */
export function binaryBytes(item: INodeExecutionData, property = 'data'): Buffer {
	const binary = item.binary?.[property];
	if (!binary) throw new Error(`item has no binary property "${property}"`);
	return Buffer.from(binary.data, 'base64');
}

/**
 * A parameter expression as n8n evaluates it for a node with `parameters` (a subtitle), or for a
 * credential whose data is `self` (`$self` in a credential's hidden fields).
 */
export function evaluateExpression(
	nodeType: INodeType,
	expression: string,
	options: { parameters?: INodeParameters; self?: IDataObject } = {},
): unknown {
	const node = buildNode(nodeType, { parameters: options.parameters ?? {}, credentials: {} });
	node.parameters = options.parameters ?? {};
	const workflow = buildWorkflow(nodeType, node);
	if (!options.self) {
		return workflow.expression.getSimpleParameterValue(node, expression, 'internal', {});
	}
	const data = { ...options.self, value: expression };
	const resolved = workflow.expression.getComplexParameterValue(
		node,
		data,
		'internal',
		{},
		undefined,
		undefined,
		data,
	) as IDataObject;
	return resolved.value;
}
