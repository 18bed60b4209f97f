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

	it("uses the node's per-company credentials and authentication choices (the Partner API one is the node's only, for now)", () => {
		const node = new PartnerPayroll().description;
		// The n8n API credential serves the node's Remove Company only.
		const perCompany = node.credentials!.filter(
			(credential) =>
				!['partnerPayrollPartnerApi', 'partnerPayrollN8nApi'].includes(credential.name),
		);
		expect(description.credentials).toEqual(perCompany);
		const choices = (name: string, properties: typeof node.properties) =>
			properties.find((property) => property.name === name)?.options;
		expect(choices('authentication', description.properties)).toEqual(
			choices('authentication', node.properties)!.filter(
				(option) => 'value' in option && option.value !== 'partnerApi',
			),
		);
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
