import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import {
	ACCESS_TOKEN_CHOICE,
	OAUTH2_CHOICE,
	PARTNER_CHOICE,
	authenticationField,
	readConnection,
} from '../shared/authentication';
import { credentialTests } from '../shared/credentialTest';
import { asNodeError } from '../shared/errors';
import { cancelSignalOf } from '../shared/transport';
import { inPool } from '../shared/pool';
import { wait } from '../shared/wait';
import { itemsOfRun } from './helpers/operation';
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
import type { Resource } from './resources/resource';
import { listPartnerCompanies } from '../shared/partnerCompanyList';

/**
 * Items of one run in flight at once. Reads go out together (the routing engine started every item at
 * once; 16 was the fastest of 4, 8, 16, 32 and unbounded in the earlier measurement); the service's
 * per-second limit is kept by the pacer whatever this number.
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
			'={{ {"accounting.downloadCsv":"Download an accounting CSV file","accounting.getEntries":"Get accounting entries","billingDeclaration.create":"Create a billing declaration","company.get":"Get a company","company.getConnection":"Get the connection of the credential","company.getFrench":"Get the French record of a company","document.download":"Download a document","document.getAutoEnrolmentDocuments":"Get UK auto-enrolment documents","document.getIncomeTaxDocuments":"Get UK income tax documents","insuranceContract.getHealthInsurance":"Get health insurance contracts","insuranceContract.getProvidentFund":"Get provident fund contracts","partnerCredential.removeCompany":"Remove a company from the partner credential","payroll.downloadPaymentFile":"Download a payment file","payroll.getStatus":"Get the payroll status of a month"}[$parameter["resource"] + "." + $parameter["operation"]] || $parameter["operation"] }}',
		description: 'Read payroll data of a company from the Partner Payroll API',
		defaults: { name: 'Partner Payroll' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'partnerPayrollApi', testedBy: 'partnerPayrollTokenTest', ...ACCESS_TOKEN_CHOICE },
			{ name: 'partnerPayrollOAuth2Api', testedBy: 'partnerPayrollTokenTest', ...OAUTH2_CHOICE },
			{
				name: 'partnerPayrollPartnerApi',
				testedBy: 'partnerPayrollCompaniesTest',
				...PARTNER_CHOICE,
			},
			// Only to write the Partner API credential's list (Remove Company), through n8n's public API.
			{
				name: 'partnerPayrollN8nApi',
				required: true,
				displayOptions: { show: { resource: ['partnerCredential'] } },
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

	/** Every item in order, one request path: the operation's executor, paired output, Continue On Fail. */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const resourceValue = this.getNodeParameter('resource', 0) as string;
		const operationValue = this.getNodeParameter('operation', 0) as string;
		const operation = RESOURCES.find((resource) => resource.value === resourceValue)?.operations[
			operationValue
		];
		if (!operation) {
			throw asNodeError(
				this.getNode(),
				new Error(`Unknown operation "${operationValue}" of resource "${resourceValue}"`),
			);
		}
		const requestOptions = this.getNodeParameter('requestOptions', 0, {}) as NodeRequestOptions;
		const connection = await readConnection(this, {
			rateLimitAdvice: NODE_RATE_LIMIT_ADVICE,
			timeoutAdvice: NODE_TIMEOUT_ADVICE,
			attemptTimeoutMs: NODE_ATTEMPT_TIMEOUT_MS,
			requestOptions,
		});
		const items = itemsOfRun(this, connection, operation.errorContext ?? {});
		const executeItem = await operation.start(items);
		const outcomes: Array<{ results?: INodeExecutionData[]; error?: unknown }> = [];
		const continueOnFail = this.continueOnFail();
		const inFlight = operation.oneItemAtATime ? 1 : ITEMS_IN_FLIGHT;
		// Batching (Request Options): a batch of items, then a pause, as n8n's own option does
		// (-1 turns it off, 0 counts as 1).
		const batch = requestOptions.batching?.batch;
		const requestedBatchSize = Number(batch?.batchSize ?? -1);
		const batchSize = requestedBatchSize >= 0 ? Math.max(requestedBatchSize, 1) : items.length;
		for (let first = 0; first < items.length; first += batchSize) {
			if (first > 0) await wait(batch?.batchInterval ?? 0, cancelSignalOf(this));
			const ranAll = await inPool(items.slice(first, first + batchSize), inFlight, async (item) => {
				try {
					outcomes[item.index] = { results: await executeItem(item) };
					return true;
				} catch (error) {
					outcomes[item.index] = { error };
					return continueOnFail;
				}
			});
			if (!ranAll) break;
		}
		// Output in input order, whatever order the answers came in.
		const output: INodeExecutionData[] = [];
		for (const item of items) {
			const outcome = outcomes[item.index];
			if (!outcome) continue;
			if (outcome.error === undefined) {
				output.push(
					...(outcome.results ?? []).map((result) => ({
						...result,
						pairedItem: { item: item.index },
					})),
				);
				continue;
			}
			const nodeError = asNodeError(this.getNode(), outcome.error, item.index);
			if (!continueOnFail) throw nodeError;
			output.push({
				json: { error: nodeError.message },
				error: nodeError,
				pairedItem: { item: item.index },
			});
		}
		return [output];
	}
}
