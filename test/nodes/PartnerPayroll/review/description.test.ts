import {
	NodeHelpers,
	type INode,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { MONTH_HELP } from '../../../../nodes/shared/month';
import { partnerPayroll } from '../../../support/fixtures';
import { evaluateExpression } from '../../../support/n8n-harness';

// What the nodes panel, the canvas and an AI agent read of the node (review findings 4, 6 and 7,
// first use: subtitles and the Month tooltip).

const properties = partnerPayroll.description.properties;
const operations = properties.filter((property) => property.name === 'operation');
const actionsOf = () =>
	Object.fromEntries(
		operations.flatMap((selector) =>
			(selector.options as INodePropertyOptions[]).map((option) => [
				`${String(selector.displayOptions?.show?.resource)}.${String(option.value)}`,
				option.action,
			]),
		),
	);

describe('actions: short, human, proper nouns kept (finding 6)', () => {
	it('every operation has its short action', () => {
		expect(actionsOf()).toEqual({
			'accounting.downloadCsv': 'Download an accounting CSV file',
			'accounting.getEntries': 'Get accounting entries',
			'billingDeclaration.create': 'Create a billing declaration',
			'company.get': 'Get a company',
			'company.getConnection': 'Get the connection of the credential',
			'company.getFrench': 'Get the French record of a company',
			'document.download': 'Download a document',
			'document.getAutoEnrolmentDocuments': 'Get UK auto-enrolment documents',
			'document.getIncomeTaxDocuments': 'Get UK income tax documents',
			'insuranceContract.getHealthInsurance': 'Get health insurance contracts',
			'insuranceContract.getProvidentFund': 'Get provident fund contracts',
			'partnerCredential.createConnectLink': 'Create a connect link for a client company',
			'partnerCredential.removeCompany': 'Remove a company from the partner credential',
			'partnerCredential.repairCompanyList': "Put each token back in its company's row",
			'payroll.downloadPaymentFile': 'Download a payment file',
			'payroll.getStatus': 'Get the payroll status of a month',
		});
	});

	it('nothing speaks of a "French company id" (it is the same Company ID)', () => {
		expect(JSON.stringify(partnerPayroll.description).toLowerCase()).not.toContain(
			'french company id',
		);
	});
});

describe('Billing Declaration → Create says what it does (finding 4)', () => {
	it('an identical declaration is sent once, across executions', () => {
		const create = (
			operations.find((selector) =>
				selector.displayOptions?.show?.resource?.includes('billingDeclaration'),
			)!.options as INodePropertyOptions[]
		)[0];
		expect(create.action).toBe('Create a billing declaration');
		expect(create.description).toContain(
			'An identical declaration is sent once, across executions',
		);
		expect(create.action).not.toMatch(/every call/);
	});
});

describe('canvas subtitle (first use)', () => {
	const subtitleFor = (resource: string, operation: string) =>
		evaluateExpression(partnerPayroll, partnerPayroll.description.subtitle!, {
			parameters: { resource, operation },
		});

	it('shows the action of each operation, not its ids', () => {
		for (const [key, action] of Object.entries(actionsOf())) {
			const [resource, operation] = key.split('.');
			expect(subtitleFor(resource, operation)).toBe(action);
		}
		expect(subtitleFor('payroll', 'downloadPaymentFile')).not.toContain('downloadPaymentFile');
	});
});

describe('a node of one operation is not held back by the fields of another', () => {
	// n8n refuses to run a workflow whose node has parameter issues ("The workflow has issues"): a
	// required field of one operation must not count for the others.
	it("an empty node's only issues are its own operation's required fields and its Company", () => {
		for (const key of Object.keys(actionsOf())) {
			const [resource, operation] = key.split('.');
			const node: INode = {
				id: 'node',
				name: 'Partner Payroll',
				type: 'n8n-nodes-partner-payroll.partnerPayroll',
				typeVersion: 1,
				position: [0, 0],
				parameters: { authentication: 'partnerApi', resource, operation },
			};
			node.parameters = NodeHelpers.getNodeParameters(
				properties,
				node.parameters,
				true,
				false,
				node,
				partnerPayroll.description,
			)!;
			const issues = NodeHelpers.getNodeParametersIssues(
				properties,
				node,
				partnerPayroll.description,
			);
			const ownFields = properties
				.filter((property) => property.displayOptions?.show?.operation?.includes(operation))
				.map((property) => property.name);
			const others = Object.keys(issues?.parameters ?? {}).filter(
				(name) => name !== 'companyId' && !ownFields.includes(name),
			);
			expect([key, others]).toEqual([key, []]);
		}
	});
});

describe('Month tooltip states exactly what Month accepts (first use, finding 5)', () => {
	it.each(['month', 'monthOfApplication'])('%s', (name) => {
		const fields = properties.filter((property) => property.name === name);
		expect(fields.length).toBeGreaterThan(0);
		for (const field of fields) expect(field.description).toContain(MONTH_HELP);
	});

	it('says how a date object is read', () => {
		expect(MONTH_HELP).toContain('read in the time zone of the workflow');
	});
});

describe('timeouts that suit slow exports (finding 7)', () => {
	it("Settings > Request Options > Timeout is the node's own, 2 minutes by default", () => {
		const requestOptions = properties.find((property) => property.name === 'requestOptions')!;
		const timeout = (requestOptions.options as INodeProperties[]).find(
			(option) => option.name === 'timeout',
		)!;
		expect(requestOptions.isNodeSetting).toBe(true);
		expect(timeout.default).toBe(120_000);
	});
});
