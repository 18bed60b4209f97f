import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { authenticationField, credentialsByAuthentication } from '../shared/descriptions';
import { accountingDescription } from './resources/accounting';
import { billingDeclarationDescription } from './resources/billingDeclaration';
import { companyDescription } from './resources/company';
import { documentDescription } from './resources/document';
import { insuranceContractDescription } from './resources/insuranceContract';
import { payrollDescription } from './resources/payroll';

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
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Read payroll data of a company from the Partner Payroll API',
		defaults: { name: 'Partner Payroll' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialsByAuthentication,
		// The base URL is the credential's, set by a pre-send hook of the routing (helpers/routing.ts).
		requestDefaults: {
			headers: { Accept: 'application/json' },
			// Every answer reaches the node's own error map, which keeps the service's details.
			ignoreHttpStatusErrors: true,
		},
		properties: [
			authenticationField,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Accounting', value: 'accounting' },
					{ name: 'Billing Declaration', value: 'billingDeclaration' },
					{ name: 'Company', value: 'company' },
					{ name: 'Document', value: 'document' },
					{ name: 'Insurance Contract', value: 'insuranceContract' },
					{ name: 'Payroll', value: 'payroll' },
				],
				default: 'payroll',
			},
			...accountingDescription,
			...billingDeclarationDescription,
			...companyDescription,
			...documentDescription,
			...insuranceContractDescription,
			...payrollDescription,
		],
	};
}
