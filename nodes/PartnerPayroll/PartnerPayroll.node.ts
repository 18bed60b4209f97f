import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { authenticationField, readConnection } from '../shared/authentication';
import { PartnerPayrollApiError } from '../shared/apiError';
import { introspectToken } from '../shared/company';
import type { Connection } from '../shared/connection';
import { credentialTests } from '../shared/credentialTest';
import { asNodeError } from '../shared/errors';
import { cancelSignalOf } from '../shared/transport';
import { wait } from '../shared/wait';
import {
	NODE_ATTEMPT_TIMEOUT_MS,
	NODE_RATE_LIMIT_ADVICE,
	NODE_TIMEOUT_ADVICE,
	requestOptionsField,
	type NodeRequestOptions,
} from './helpers/requestOptions';
import { accounting } from './resources/accounting';
import { billingDeclaration } from './resources/billingDeclaration';
import { company } from './resources/company';
import { document } from './resources/document';
import { insuranceContract } from './resources/insuranceContract';
import { partnerCredential } from './resources/partnerCredential';
import { payroll } from './resources/payroll';
import type { Operation, Resource } from './resources/resource';
import { listPartnerCompanies } from '../shared/partnerCompanyList';
import {
	namedCompanyOf,
	withCompanyFields,
	withCompanyInMessage,
} from './helpers/itemCompanyNames';

/**
 * Items of one run in flight at once: independent items do not wait for each other's answers. The
 * service's per-second limit is kept by the pacer whatever this number; it only bounds the requests
 * one run holds open.
 */
const ITEMS_IN_FLIGHT = 16;

const RESOURCES: Resource[] = [
	accounting,
	billingDeclaration,
	company,
	document,
	insuranceContract,
	partnerCredential,
	payroll,
];

export class PartnerPayroll implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Partner Payroll',
		name: 'partnerPayroll',
		icon: {
			light: 'file:../../icons/partnerPayroll.svg',
			dark: 'file:../../icons/partnerPayroll.dark.svg',
		},
		group: ['input'],
		version: 1,
		// The canvas shows the node's action ("Download a payment file"), not the ids of n8n's usual
		// `operation: resource`. n8n's lint wants this literal; a test keeps it equal to the actions.
		subtitle:
			'={{ {"accounting.downloadCsv":"Download an accounting CSV file","accounting.getEntries":"Get accounting entries","billingDeclaration.create":"Create a billing declaration","company.get":"Get a company","company.getConnection":"Get the connection of the credential","company.getFrench":"Get the French record of a company","document.download":"Download a document","document.getAutoEnrolmentDocuments":"Get UK auto-enrolment documents","document.getIncomeTaxDocuments":"Get UK income tax documents","insuranceContract.getHealthInsurance":"Get health insurance contracts","insuranceContract.getProvidentFund":"Get provident fund contracts","partnerCredential.createConnectLink":"Create a connect link for a client company","partnerCredential.removeCompany":"Remove a company from the partner credential","partnerCredential.repairCompanyList":"Put each token back in its company\'s row","payroll.downloadPaymentFile":"Download a payment file","payroll.getStatus":"Get the payroll status of a month"}[$parameter["resource"] + "." + $parameter["operation"]] || $parameter["operation"] }}',
		description: 'Read payroll data of a company from the Partner Payroll API',
		defaults: { name: 'Partner Payroll' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			// Written out, not spread: n8n's lint reads each credential's displayOptions from the node file.
			{
				name: 'partnerPayrollApi',
				testedBy: 'partnerPayrollTokenTest',
				required: true,
				displayOptions: { show: { authentication: ['accessToken'] } },
			},
			{
				name: 'partnerPayrollOAuth2Api',
				testedBy: 'partnerPayrollTokenTest',
				required: true,
				displayOptions: { show: { authentication: ['oAuth2'] } },
			},
			{
				name: 'partnerPayrollPartnerApi',
				testedBy: 'partnerPayrollCompaniesTest',
				required: true,
				displayOptions: { show: { authentication: ['partnerApi'] } },
			},
			// n8n's public API: to write the Partner API credential (Remove Company; Create Connect Link's
			// secret), and to keep the record of billing declarations in n8n's Data Tables.
			{
				name: 'partnerPayrollN8nApi',
				required: true,
				displayOptions: { show: { resource: ['partnerCredential', 'billingDeclaration'] } },
			},
		],
		properties: [
			authenticationField,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: RESOURCES.map(({ name, value }) => ({ name, value })),
				default: 'payroll',
			},
			...RESOURCES.flatMap((resource) => resource.properties),
			requestOptionsField,
		],
	};

	methods = {
		credentialTest: credentialTests,
		loadOptions: { listPartnerCompanies },
	};

	/** Every item in order: the operation's output for each, paired with its input item, Continue On Fail. */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = operationOf(this);
		const requestOptions = this.getNodeParameter('requestOptions', 0, {}) as NodeRequestOptions;
		const connection = await readConnection(this, {
			rateLimitAdvice: NODE_RATE_LIMIT_ADVICE,
			timeoutAdvice: NODE_TIMEOUT_ADVICE,
			attemptTimeoutMs: NODE_ATTEMPT_TIMEOUT_MS,
			requestOptions,
		});
		const itemIndices = this.getInputData().map((_, itemIndex) => itemIndex);
		const continueOnFail = this.continueOnFail();
		try {
			await operation.prepare?.call(this, itemIndices, connection);
		} catch (error) {
			// An item's check that stops the run before any item is sent: that item's error.
			const itemIndex = (error as { context?: { itemIndex?: number } }).context?.itemIndex;
			throw itemIndex === undefined ? error : itemError(this, connection, error, itemIndex);
		}
		const run = { operation, connection, requestOptions, continueOnFail };
		const outcomes = await runItems(this, run, itemIndices);
		return [outputInOrder(this, connection, itemIndices, outcomes, continueOnFail)];
	}
}

/** What one input item came to: its output items, or the error that stopped it. */
interface Outcome {
	results?: INodeExecutionData[];
	error?: unknown;
}

/** The operation the node's Resource and Operation parameters choose. */
function operationOf(context: IExecuteFunctions): Operation {
	const resourceValue = context.getNodeParameter('resource', 0) as string;
	const operationValue = context.getNodeParameter('operation', 0) as string;
	const operation = RESOURCES.find((resource) => resource.value === resourceValue)?.operations[
		operationValue
	];
	if (!operation) {
		throw asNodeError(
			context.getNode(),
			new Error(`Unknown operation "${operationValue}" of resource "${resourceValue}"`),
		);
	}
	return operation;
}

/**
 * Executes the items, several in flight (one at a time for a write), batch after batch with
 * Batching. Without Continue On Fail, no item starts after a failure (those in flight finish).
 */
async function runItems(
	context: IExecuteFunctions,
	run: {
		operation: Operation;
		connection: Connection;
		requestOptions: NodeRequestOptions;
		continueOnFail: boolean;
	},
	itemIndices: number[],
): Promise<Outcome[]> {
	const { operation, connection, requestOptions, continueOnFail } = run;
	const outcomes: Outcome[] = [];
	const inFlight = operation.oneItemAtATime ? 1 : ITEMS_IN_FLIGHT;
	// Batching (Request Options): a batch of items, then a pause, as n8n's own option does
	// (-1 turns it off, 0 counts as 1).
	const batch = requestOptions.batching?.batch;
	const requestedBatchSize = Number(batch?.batchSize ?? -1);
	const batchSize = requestedBatchSize >= 0 ? Math.max(requestedBatchSize, 1) : itemIndices.length;
	let stopped = false;
	for (let first = 0; first < itemIndices.length && !stopped; first += batchSize) {
		if (first > 0) await wait(batch?.batchInterval ?? 0, cancelSignalOf(context));
		const batchIndices = itemIndices.slice(first, first + batchSize);
		let next = 0;
		const worker = async () => {
			while (!stopped && next < batchIndices.length) {
				const itemIndex = batchIndices[next++];
				try {
					const results = await operation.execute.call(context, itemIndex, connection);
					outcomes[itemIndex] = {
						results: operation.withoutCompany
							? results
							: await withCompanyFields(context, itemIndex, connection, results),
					};
				} catch (error) {
					outcomes[itemIndex] = {
						error: await withTokenCompany(context, connection, error, itemIndex),
					};
					if (!continueOnFail) stopped = true;
				}
			}
		};
		const workers = Math.max(1, Math.min(inFlight, batchIndices.length));
		await Promise.all(Array.from({ length: workers }, worker));
	}
	return outcomes;
}

/** The output in input order, whatever order the answers came in; the first error without Continue On Fail. */
function outputInOrder(
	context: IExecuteFunctions,
	connection: Connection,
	itemIndices: number[],
	outcomes: Outcome[],
	continueOnFail: boolean,
): INodeExecutionData[] {
	const output: INodeExecutionData[] = [];
	for (const itemIndex of itemIndices) {
		const outcome = outcomes[itemIndex];
		if (!outcome) continue;
		if (outcome.error === undefined) {
			output.push(
				...(outcome.results ?? []).map((result) => ({
					...result,
					pairedItem: { item: itemIndex },
				})),
			);
			continue;
		}
		const nodeError = itemError(context, connection, outcome.error, itemIndex);
		if (!continueOnFail) throw nodeError;
		output.push({
			json: { error: nodeError.message },
			error: nodeError,
			pairedItem: { item: itemIndex },
		});
	}
	return output;
}

/** An item's error as n8n shows it, naming the item's company with the Partner API credential. */
function itemError(
	context: IExecuteFunctions,
	connection: Connection,
	error: unknown,
	itemIndex: number,
) {
	const nodeError = asNodeError(context.getNode(), error, itemIndex);
	return withCompanyInMessage(nodeError, namedCompanyOf(context, itemIndex, connection));
}

/**
 * A 404 on a typed Company ID most often means the token is another company's: say whose, when
 * the authorization server can tell. Nothing is lost when it cannot.
 */
async function withTokenCompany(
	context: IExecuteFunctions,
	connection: Connection,
	error: unknown,
	itemIndex: number,
): Promise<unknown> {
	if (!(error instanceof PartnerPayrollApiError) || error.httpCode !== '404') return error;
	if (!connection.authServerUrl || !connection.accessToken) return error;
	const typedCompanyId = String(context.getNodeParameter('companyId', itemIndex, '') ?? '').trim();
	if (!typedCompanyId) return error;
	const tokenCompany = await introspectToken(context, connection).then(
		(introspection) => (introspection.active ? introspection.company_id : undefined),
		() => undefined,
	);
	if (tokenCompany && tokenCompany !== typedCompanyId) {
		// Said once: the 404's own description already explains that a token sees only its company.
		error.description = `The token of this credential is for company ${tokenCompany}, and Company ID is ${typedCompanyId}. ${error.description ?? ''}`;
	}
	return error;
}
