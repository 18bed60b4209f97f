import {
	NodeOperationError,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
	type PostReceiveAction,
	type PreSendAction,
} from 'n8n-workflow';

import { bodyBytes, fileNamePart, fileToItem, withReadErrorBody } from '../../shared/binary';
import { resolveCompanyId } from '../../shared/company';
import { getConnection } from '../../shared/credentials';
import { parseDocumentReference, type DocumentReference } from '../../shared/documentReference';
import { withListedDocumentPdf } from '../../shared/documents';
import {
	NODE_RATE_LIMIT_ADVICE,
	malformedAnswerError,
	throwIfApiError,
	type ErrorContext,
} from '../../shared/errors';
import { normalizeMonth, type MonthField } from '../../shared/month';
import { isIdempotent, sendWithPolicy } from '../../shared/requestPolicy';
import { cancelSignalOf } from '../../shared/transport';
import { accountingEntriesFromCsv } from './accountingCsv';

const MONTH: MonthField = { name: 'month', displayName: 'Month' };
const MONTH_OF_APPLICATION: MonthField = {
	name: 'monthOfApplication',
	displayName: 'Month of Application',
};

// ---------------------------------------------------------------------------------------------
// Values shared by the hooks of one item

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
		}
		return await value;
	};
}

/** The node's credential, read once per execution. */
const connectionOf = oncePerExecution(getConnection);

/** The company of the token, looked up once per execution. */
const companyOfToken = oncePerExecution(
	async (context) => await resolveCompanyId(context, await connectionOf(context), ''),
);

export async function companyIdOf(context: IExecuteSingleFunctions): Promise<string> {
	const typed = String(context.getNodeParameter('companyId', '') ?? '').trim();
	return typed || (await companyOfToken(context));
}

function monthOf(context: IExecuteSingleFunctions): string {
	return normalizeMonth(
		context.getNodeParameter('month', ''),
		MONTH,
		context.getNode(),
		context.getItemIndex(),
	);
}

interface ProductQuantity {
	productName?: string;
	quantity?: number;
	numberOfEmployees?: number;
}

function billingDeclarationOf(context: IExecuteSingleFunctions): IDataObject {
	const node = context.getNode();
	const itemIndex = context.getItemIndex();
	const monthOfApplication = normalizeMonth(
		context.getNodeParameter('monthOfApplication', ''),
		MONTH_OF_APPLICATION,
		node,
		itemIndex,
	);
	const quantities = context.getNodeParameter(
		'quantityByProducts.product',
		[],
	) as ProductQuantity[];
	const employees = context.getNodeParameter(
		'options.employeesByProducts.product',
		[],
	) as ProductQuantity[];
	const fail = (message: string) => new NodeOperationError(node, message, { itemIndex });

	if (quantities.length && employees.length) {
		throw fail('Use either Quantity by Products or the deprecated Employees by Products, not both');
	}
	if (!quantities.length && !employees.length) {
		throw fail('Quantity by Products needs at least one product');
	}
	const field = employees.length ? 'numberOfEmployees' : 'quantity';
	const products = (employees.length ? employees : quantities).map((product, index) => {
		const productName = String(product.productName ?? '').trim();
		const amount = Number(product[field]);
		if (!productName) throw fail(`Product Name of product ${index + 1} is empty`);
		if (
			!Number.isFinite(amount) ||
			amount < 0 ||
			(field === 'numberOfEmployees' && !Number.isInteger(amount))
		) {
			throw fail(
				`${field === 'quantity' ? 'Quantity' : 'Number of Employees'} of product ${index + 1} must be ${field === 'quantity' ? 'a number' : 'a whole number'} of 0 or more`,
			);
		}
		return { productName, [field]: amount };
	});
	return {
		monthOfApplication,
		[employees.length ? 'employeesByProducts' : 'quantityByProducts']: products,
	};
}

// ---------------------------------------------------------------------------------------------
// Pre-send hooks: everything that can be checked locally fails here, before any request.

export async function sendMonthAsDate(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	requestOptions.qs = { ...requestOptions.qs, date: monthOf(this) };
	return requestOptions;
}

async function documentReferenceOf(context: IExecuteSingleFunctions): Promise<DocumentReference> {
	const { baseUrl } = await connectionOf(context);
	return parseDocumentReference(
		String(context.getNodeParameter('documentId', '')),
		baseUrl,
		context.getNode(),
		context.getItemIndex(),
	);
}

/** The company of a document: the one its documentUrl names, else the node's company. */
async function documentCompanyIdOf(
	context: IExecuteSingleFunctions,
	reference: DocumentReference,
): Promise<string> {
	const typed = String(context.getNodeParameter('companyId', '') ?? '').trim();
	if (reference.companyId === undefined) return await companyIdOf(context);
	if (typed && typed !== reference.companyId) {
		throw new NodeOperationError(
			context.getNode(),
			`Document ID is a document of company "${reference.companyId}", not of company "${typed}"`,
			{
				itemIndex: context.getItemIndex(),
				description: 'Leave Company ID empty: a documentUrl names its company.',
			},
		);
	}
	return reference.companyId;
}

/**
 * A documentUrl is downloaded from the listed path itself (the spec: "the API path from which the
 * document is downloaded"); a bare id from the documented path. A documentUrl names its company, so
 * it needs no company lookup.
 */
export async function fillDocumentPath(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const reference = await documentReferenceOf(this);
	const companyId = await documentCompanyIdOf(this, reference);
	requestOptions.url =
		reference.path ??
		`/companies/${encodeURIComponent(companyId)}/documents/${encodeURIComponent(reference.documentId)}`;
	return requestOptions;
}

export async function sendBillingDeclaration(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	requestOptions.body = billingDeclarationOf(this);
	return requestOptions;
}

// An expression in requestDefaults (`={{$credentials.baseUrl}}`) is evaluated again for every item,
// in n8n 2.40 in its expression sandbox: a quarter of the CPU time of 1,000 Get Status items.
/** The API Base URL of the node's credential, read once per execution. */
export async function sendToApiBaseUrl(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	requestOptions.baseURL = (await connectionOf(this)).baseUrl;
	return requestOptions;
}

/** Runs last: the company lookup is the first request an item may cause. */
export async function fillCompanyId(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const url = String(requestOptions.url);
	if (!url.includes('{companyId}')) return requestOptions;
	requestOptions.url = url.replace('{companyId}', encodeURIComponent(await companyIdOf(this)));
	return requestOptions;
}

// ---------------------------------------------------------------------------------------------
// Post-receive hooks

export function apiErrorHook(errorContext: ErrorContext = {}, write = false): PostReceiveAction {
	return async function throwOnApiError(
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		const itemIndex = this.getItemIndex();
		throwIfApiError(this.getNode(), await withReadErrorBody(response), {
			...errorContext,
			itemIndex,
		});
		// A write succeeded with any 2xx, whatever its body. A read that got text back (garbled, or
		// an HTML page) must not pass the text on.
		if (!write && typeof response.body === 'string') {
			throw malformedAnswerError(this.getNode(), itemIndex);
		}
		return items;
	};
}

/** The engine splits array answers only when an operation has no post-receive hook; ours all do. */
export async function oneItemPerArrayElement(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const body = response.body as IDataObject[] | IDataObject;
	return Array.isArray(body) ? body.map((json) => ({ json })) : items;
}

function binaryPropertyNameOf(
	context: IExecuteSingleFunctions,
	name = 'binaryPropertyName',
): string {
	return String(context.getNodeParameter(name, 'data')).trim() || 'data';
}

/** A file of one company and month: a name built from both unless the service names it. */
async function monthFileToItem(
	context: IExecuteSingleFunctions,
	response: IN8nHttpFullResponse,
	expected: { namePrefix: string; extension: string; mimeType: string },
): Promise<INodeExecutionData> {
	const companyId = await companyIdOf(context);
	const month = monthOf(context);
	const fileName = `${expected.namePrefix}-${fileNamePart(companyId)}-${month}${expected.extension}`;
	return await fileToItem(
		context,
		response,
		{ fileName, mimeType: expected.mimeType },
		binaryPropertyNameOf(context),
		{ companyId, month },
	);
}

export async function paymentFileToItem(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	// The payment file format is not documented: no extension rather than a wrong one.
	const expected = {
		namePrefix: 'payment-file',
		extension: '',
		mimeType: 'application/octet-stream',
	};
	return [await monthFileToItem(this, response, expected)];
}

export async function accountingCsvToItems(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const expected = { namePrefix: 'accounting', extension: '.csv', mimeType: 'text/csv' };
	if (!this.getNodeParameter('options.parseLines', false)) {
		return [await monthFileToItem(this, response, expected)];
	}
	// The lines need the text: the body is read once, and the same bytes become the file.
	const bytes = await bodyBytes(response.body);
	const fileItem = await monthFileToItem(this, { ...response, body: bytes }, expected);
	const entries = accountingEntriesFromCsv(bytes.toString('utf8'));
	if (!entries.length) return [fileItem];
	// One item per line; the file rides on the first one so it can still be mailed or stored.
	return entries.map((entry, index) =>
		index === 0 ? { json: entry, binary: fileItem.binary } : { json: entry },
	);
}

export async function documentToItem(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const reference = await documentReferenceOf(this);
	const companyId = await documentCompanyIdOf(this, reference);
	const { documentId } = reference;
	const expected = { fileName: `${fileNamePart(documentId)}.pdf`, mimeType: 'application/pdf' };
	return [
		await fileToItem(this, response, expected, binaryPropertyNameOf(this), {
			companyId,
			documentId,
		}),
	];
}

/** Get Status: the month and company it answers for travel with the status. */
export async function payrollStatusToItem(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const body = response.body as IDataObject;
	return [
		{
			json: {
				companyId: await companyIdOf(this),
				month: monthOf(this),
				status: body.status,
				executionEndDate: body.executionEndDate ?? null,
			},
		},
	];
}

/** Listing option "Download Files": each listed PDF joins its own item, so no loop is needed. */
export async function attachListedDocuments(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	if (!this.getNodeParameter('options.downloadFiles', false)) return items;
	const connection = await connectionOf(this);
	const companyId = await companyIdOf(this);
	const binaryPropertyName = binaryPropertyNameOf(this, 'options.binaryPropertyName');
	const withFiles: INodeExecutionData[] = [];
	// One after the other: a company's yearly documents can be many, and the rate limit is per application.
	for (const item of items) {
		withFiles.push(
			await withListedDocumentPdf(this, connection, companyId, item, binaryPropertyName, {
				itemIndex: this.getItemIndex(),
			}),
		);
	}
	return withFiles;
}

export async function confirmBillingDeclaration(
	this: IExecuteSingleFunctions,
): Promise<INodeExecutionData[]> {
	return [
		{ json: { declared: true, companyId: await companyIdOf(this), ...billingDeclarationOf(this) } },
	];
}

// ---------------------------------------------------------------------------------------------
// Request operation

/**
 * Every operation's request goes through here (`send.paginate`): the declarative engine's
 * pagination hook is its only place that may send a request again. The package's request policy
 * decides whether it does; the post-receive hooks' own downloads end final, so they never re-read.
 */
function sendUnderPolicy(errorContext: ErrorContext) {
	return async function sendOperationRequest(
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const { options } = requestData;
		return await sendWithPolicy(
			{
				node: this.getNode(),
				method: options.method,
				errorContext: { ...errorContext, itemIndex: this.getItemIndex() },
				signal: cancelSignalOf(this),
			},
			async ({ timeoutMs }) =>
				await this.makeRoutingRequest({
					...requestData,
					// The node's Timeout option, when lower, still wins.
					options: { ...options, timeout: Math.min(options.timeout ?? timeoutMs, timeoutMs) },
				}),
		);
	};
}

// ---------------------------------------------------------------------------------------------
// Routing of one operation

interface OperationRouting {
	method: 'GET' | 'POST';
	/** Path template below the API base URL, with a `{companyId}` placeholder. */
	path: string;
	/** The answer is a file. */
	binary?: boolean;
	country?: ErrorContext['country'];
	/** What a write does, for "may have been recorded" errors, e.g. "The billing declaration". */
	effect?: string;
	/** Local checks and request building; the company lookup is appended last. */
	preSend?: PreSendAction[];
	postReceive?: PostReceiveAction[];
}

/** The routing every operation of the node shares: request policy, local checks first, one error map. */
export function operationRouting(operation: OperationRouting) {
	const errorContext: ErrorContext = {
		country: operation.country,
		effect: operation.effect,
		rateLimitAdvice: NODE_RATE_LIMIT_ADVICE,
	};
	return {
		request: {
			method: operation.method,
			url: operation.path,
			...(operation.binary
				? // Files stream from the socket into n8n's binary store (see fileToItem).
					{ encoding: 'stream' as const, json: false, headers: { Accept: '*/*' } }
				: {}),
		},
		send: {
			paginate: true,
			preSend: [...(operation.preSend ?? []), sendToApiBaseUrl, fillCompanyId],
		},
		operations: { pagination: sendUnderPolicy(errorContext) },
		output: {
			postReceive: [
				apiErrorHook(errorContext, !isIdempotent(operation.method)),
				oneItemPerArrayElement,
				...(operation.postReceive ?? []),
			],
		},
	};
}
