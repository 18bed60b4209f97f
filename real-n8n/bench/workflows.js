'use strict';
// The benchmark's workflows: a Webhook (answering when the workflow ends) → [1,000 items] → the node
// measured, always named "Subject". The same request is made by this package's node and by n8n's
// HTTP Request node (header auth). Credentials are records for `n8n import:credentials`.
const crypto = require('node:crypto');
const { partnerCredential, DEFAULT_CLIENT } = require('../lib/credentials');
const { partnerPayrollTriggerNode } = require('../lib/workflows');

const SUBJECT = 'Subject';
const COMPANY = 'FR1001';
const MONTH = '202610';
/** The UK company whose income-tax listing the sandbox fills (`listedDocuments`) for Download Files. */
const UK_COMPANY = 'GB3001';
/** At the rate limit: payment files downloaded in one execution, and PDFs of one listing with Download Files. */
const LIMITED_FILES = 20;
const LISTED_PDFS = 50;
const PACKAGE_NODE = 'n8n-nodes-partner-payroll.partnerPayroll';

const CREDENTIALS = {
	payroll: { id: 'benchPayrollToken', name: 'Bench token' },
	// A token belongs to one company: GB3001's documents need GB3001's (same client application, same limit).
	payrollUk: { id: 'benchPayrollTokenUk', name: 'Bench token GB3001' },
	header: { id: 'benchHeaderAuth', name: 'Bench header auth' },
	// One Partner API credential holding every company of the sandbox (partner-scale.js).
	partner: { id: 'benchPartnerApi', name: 'Bench partner companies' },
};

function credentialRecords(sandbox) {
	const token = sandbox.tokenOf(COMPANY);
	const payrollRecord = (credential, accessToken) => ({
		...credential,
		type: 'partnerPayrollApi',
		data: { baseUrl: sandbox.apiBaseUrl, accessToken, authServerUrl: sandbox.authServerUrl },
	});
	return [
		payrollRecord(CREDENTIALS.payroll, token),
		payrollRecord(CREDENTIALS.payrollUk, sandbox.tokenOf(UK_COMPANY)),
		{ ...CREDENTIALS.header, type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${token}` } },
	];
}

function payrollNode(parameters, credential = CREDENTIALS.payroll) {
	return {
		type: PACKAGE_NODE,
		typeVersion: 1,
		parameters: { authentication: 'accessToken', companyId: COMPANY, month: MONTH, ...parameters },
		credentials: { partnerPayrollApi: credential },
	};
}

function httpRequestNode(sandbox, httpVersion, apiPath, options = {}) {
	return {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: httpVersion,
		parameters: {
			method: 'GET',
			url: `${sandbox.apiBaseUrl}${apiPath}`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			sendQuery: true,
			specifyQuery: 'keypair',
			queryParameters: { parameters: [{ name: 'date', value: MONTH }] },
			options,
		},
		credentials: { httpHeaderAuth: CREDENTIALS.header },
	};
}

/** The workflows measured: key → {id, path, subject node}. */
function subjects(sandbox, httpVersion) {
	const statusPath = `/companies/${COMPANY}/payroll-status`;
	const filePath = `/companies/${COMPANY}/payment-files`;
	const fileOptions = { response: { response: { responseFormat: 'file', outputPropertyName: 'data' } } };
	return {
		statusNode: { items: 1000, node: payrollNode({ resource: 'payroll', operation: 'getStatus' }) },
		statusHttp: { items: 1000, node: httpRequestNode(sandbox, httpVersion, statusPath) },
		fileNode: { node: payrollNode({ resource: 'payroll', operation: 'downloadPaymentFile', binaryPropertyName: 'data' }) },
		fileHttp: { node: httpRequestNode(sandbox, httpVersion, filePath, fileOptions) },
		parseLines: {
			node: payrollNode({ resource: 'accounting', operation: 'downloadCsv', binaryPropertyName: 'data', options: { parseLines: true } }),
		},
		// At the service's rate limit: failed items become output items (On Error → Continue) to be counted.
		limitedNode: { items: 1000, node: continuing(payrollNode({ resource: 'payroll', operation: 'getStatus' })) },
		// Two workflows of 500 items, so that two executions run at the same moment, one of each.
		limitedHalfA: { items: 500, node: continuing(payrollNode({ resource: 'payroll', operation: 'getStatus' })) },
		limitedHalfB: { items: 500, node: continuing(payrollNode({ resource: 'payroll', operation: 'getStatus' })) },
		limitedHttp: { items: 1000, node: continuing(httpRequestNode(sandbox, httpVersion, statusPath)) },
		// What a careful user sets for 50 reads per second: 50 items per batch, a batch per second.
		limitedHttpBatched: {
			items: 1000,
			node: continuing(httpRequestNode(sandbox, httpVersion, statusPath, { batching: { batch: { batchSize: 50, batchInterval: 1000 } } })),
		},
		// 20 payment files in one execution (the sandbox's small size), one item each.
		limitedFiles: {
			items: LIMITED_FILES,
			node: continuing(payrollNode({ resource: 'payroll', operation: 'downloadPaymentFile', binaryPropertyName: 'data' })),
		},
		// One listing of GB3001 (the sandbox holding 50 documents) with Download Files: 1 + 50 requests.
		limitedListing: {
			node: continuing(
				payrollNode(
					{ resource: 'document', operation: 'getIncomeTaxDocuments', companyId: UK_COMPANY, options: { downloadFiles: true } },
					CREDENTIALS.payrollUk,
				),
			),
		},
	};
}

/** Settings → On Error → Continue: a failed item is an output item with `json.error`. */
function continuing(node) {
	return { ...node, onError: 'continueRegularOutput' };
}

/**
 * The Partner API credential record: one row per company of `companies` (`{companyId, token}`), labelled
 * "Client <id>", with the sandbox's default OAuth client (the one that issued the tokens).
 */
function partnerCredentialRecord(sandbox, companies) {
	return partnerCredential({
		...CREDENTIALS.partner,
		sandbox,
		client: DEFAULT_CLIENT,
		companies: companies.map(({ companyId, token }) => ({ companyId, label: `Client ${companyId}`, token })),
	});
}

/** Get Status of the Partner Payroll node over the Partner API credential, for the item's company. */
function partnerStatusNode() {
	return continuing({
		type: PACKAGE_NODE,
		typeVersion: 1,
		parameters: { authentication: 'partnerApi', resource: 'payroll', operation: 'getStatus', companyId: '={{ $json.companyId }}', month: MONTH },
		credentials: { partnerPayrollPartnerApi: CREDENTIALS.partner },
	});
}

/**
 * A Webhook → [`items` items] → the node measured. With `companyIds`, item i carries
 * `companyId: companyIds[i % companyIds.length]`: the items spread over the companies, in turn.
 */
function webhookWorkflow(key, { items, companyIds, node }) {
	const id = `bench${key[0].toUpperCase()}${key.slice(1)}`.slice(0, 21);
	const path = `bench-${key.toLowerCase()}`;
	const nodes = [
		{
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: crypto.createHash('sha256').update(path).digest('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12}).*$/, '$1-$2-$3-$4-$5'),
			parameters: { httpMethod: 'GET', path, responseMode: 'lastNode', responseData: 'noData', options: {} },
		},
	];
	if (items) {
		nodes.push({
			name: 'Items',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			parameters: {
				jsCode: companyIds
					? `const companyIds = ${JSON.stringify(companyIds)};\nreturn Array.from({ length: ${items} }, (_, index) => ({ json: { index, companyId: companyIds[index % companyIds.length] } }));`
					: `return Array.from({ length: ${items} }, (_, index) => ({ json: { index } }));`,
			},
		});
	}
	nodes.push({ name: SUBJECT, ...node });
	const connections = {};
	for (let index = 0; index < nodes.length - 1; index += 1) {
		connections[nodes[index].name] = { main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]] };
	}
	return {
		id,
		name: `Bench ${key}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: nodes.map((entry, index) => ({ id: `${id}-${index}`, position: [index * 220, 0], ...entry })),
		connections,
		webhookPath: path,
	};
}

const TRIGGER_SETTINGS = { executionOrder: 'v1', timezone: 'Europe/Paris' };
/** Polls at activation and then once an hour: every activation is one poll. */
const HOURLY = { item: [{ mode: 'everyHour', minute: 7 }] };

/** A Partner Payroll Trigger with these parameters and credentials → a No Operation node. */
function triggerWorkflowOf(name, parameters, credential) {
	const trigger = partnerPayrollTriggerNode('Partner Payroll Trigger', HOURLY, { months: 'both', ...parameters }, credential);
	return {
		name,
		settings: TRIGGER_SETTINGS,
		nodes: [
			{ id: 'bench-trigger-0', position: [0, 0], ...trigger },
			{ id: 'bench-trigger-1', name: 'Received', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} },
		],
		connections: { 'Partner Payroll Trigger': { main: [[{ node: 'Received', type: 'main', index: 0 }]] } },
	};
}

/**
 * The trigger, watching Current and Previous Month with Company ID empty (one introspection per
 * poll at most).
 */
function triggerWorkflow() {
	return triggerWorkflowOf('Bench trigger', { companyId: '' }, { ...CREDENTIALS.payroll, type: 'partnerPayrollApi' });
}

/** The trigger over every company of the Partner API credential, Current and Previous Month. */
function partnerTriggerWorkflow() {
	return triggerWorkflowOf('Bench partner trigger', { companies: 'all' }, { ...CREDENTIALS.partner, type: 'partnerPayrollPartnerApi' });
}

module.exports = {
	SUBJECT,
	COMPANY,
	MONTH,
	UK_COMPANY,
	LIMITED_FILES,
	LISTED_PDFS,
	credentialRecords,
	partnerCredentialRecord,
	partnerStatusNode,
	subjects,
	webhookWorkflow,
	triggerWorkflow,
	partnerTriggerWorkflow,
};
