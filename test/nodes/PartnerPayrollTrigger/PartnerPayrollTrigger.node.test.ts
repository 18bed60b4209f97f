import { NodeHelpers, type INode, type INodeProperties } from 'n8n-workflow';

import { PartnerPayroll } from '../../../nodes/PartnerPayroll/PartnerPayroll.node';
import { partnerPayrollTrigger } from './triggerHarness';

const { description } = partnerPayrollTrigger;

describe('Partner Payroll Trigger description', () => {
	it('is a polling trigger without inputs', () => {
		expect(description).toMatchObject({
			name: 'partnerPayrollTrigger',
			displayName: 'Partner Payroll Trigger',
			polling: true,
			inputs: [],
			group: ['trigger'],
		});
		expect(description.usableAsTool).toBeUndefined();
	});

	it("uses the node's credentials and authentication choices, the Partner API one included", () => {
		const node = new PartnerPayroll().description;
		// The n8n API credential serves the node's Remove Company only.
		const polled = node.credentials!.filter(
			(credential) => credential.name !== 'partnerPayrollN8nApi',
		);
		expect(description.credentials).toEqual(polled);
		const choices = (name: string, properties: typeof node.properties) =>
			properties.find((property) => property.name === name)?.options;
		expect(choices('authentication', description.properties)).toEqual(
			choices('authentication', node.properties),
		);
		expect(partnerPayrollTrigger.methods?.loadOptions?.listPartnerCompanies).toBe(
			(new PartnerPayroll().methods.loadOptions as Record<string, unknown>).listPartnerCompanies,
		);
	});

	it('with the Partner API credential: Companies (all by default) instead of Company ID, and connection changes reported by default', () => {
		const node = { typeVersion: 1 } as INode;
		const shown = (name: string, parameters: object) =>
			description.properties
				.filter((property) => property.name === name)
				.some((property) =>
					NodeHelpers.displayParameter(parameters as never, property, node, description),
				);
		const partner = { authentication: 'partnerApi', event: 'payrollCompleted', companies: 'all' };
		expect(shown('companyId', partner)).toBe(false);
		expect(shown('companies', partner)).toBe(true);
		expect(shown('companyIds', partner)).toBe(false);
		expect(shown('companyIds', { ...partner, companies: 'selected' })).toBe(true);
		expect(shown('reportConnectionChanges', partner)).toBe(true);
		const oauth = { authentication: 'oAuth2', event: 'payrollCompleted' };
		expect(shown('companyId', oauth)).toBe(true);
		expect(shown('companies', oauth)).toBe(false);
		expect(shown('reportConnectionChanges', oauth)).toBe(false);
		const defaults = Object.fromEntries(
			description.properties.map((property) => [property.name, property.default]),
		);
		expect(defaults).toMatchObject({ companies: 'all', reportConnectionChanges: true });
	});

	it('defaults: payrollCompleted, current and previous month', () => {
		const defaults = Object.fromEntries(
			description.properties.map((property) => [property.name, property.default]),
		);
		expect(defaults).toMatchObject({ event: 'payrollCompleted', months: 'both', companyId: '' });
	});

	it('shows Put Output File in Field only with Attach PDF, as the editor reads a collection', () => {
		const options = description.properties.find(
			(property) =>
				property.name === 'options' &&
				property.displayOptions?.show?.event?.includes('newDocument'),
		)!;
		const field = (options.options as INodeProperties[]).find(
			(option) => option.name === 'binaryPropertyName',
		)!;
		const node = { typeVersion: 1 } as INode;
		const shown = (options: object) =>
			NodeHelpers.displayParameterPath(
				{ event: 'newDocument', options } as never,
				field,
				'options',
				node,
				description,
			);
		expect(shown({ attachPdf: true })).toBe(true);
		expect(shown({ attachPdf: false })).toBe(false);
		expect(shown({})).toBe(false);
	});
});
