import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { companyIdField, partnerCompanyField } from '../../shared/descriptions';
import { MONTH_DESCRIPTION, normalizeMonth, type MonthField } from '../../shared/month';

// Fields that several operations of the node show; each operation's file sets where they show.

/**
 * Company ID, shown for every operation of one resource but those named: typed, or with the Partner API
 * credential a company of its list (shown for every operation but those named: its token is the one the
 * operation uses).
 */
export const companyIdFieldsOf = (
	resource: string,
	exceptOperations: string[] = [],
	withoutListedCompany: string[] = [],
): INodeProperties[] => [
	{
		...companyIdField,
		displayOptions: {
			show: { resource: [resource] },
			hide: {
				authentication: ['partnerApi'],
				...(exceptOperations.length ? { operation: exceptOperations } : {}),
			},
		},
	},
	{
		...partnerCompanyField,
		displayOptions: {
			show: { resource: [resource], authentication: ['partnerApi'] },
			...(withoutListedCompany.length ? { hide: { operation: withoutListedCompany } } : {}),
		},
	},
];

export const monthField: INodeProperties = {
	displayName: 'Month',
	name: 'month',
	type: 'string',
	required: true,
	default: '',
	placeholder: '202610',
	description: MONTH_DESCRIPTION,
};

/** The item's month field as YYYYMM, or an error that names the field. */
export const monthOf = (
	context: IExecuteFunctions,
	itemIndex: number,
	field: MonthField = monthField,
) =>
	normalizeMonth(
		context.getNodeParameter(field.name, itemIndex, ''),
		field,
		context.getNode(),
		itemIndex,
		context.getTimezone(),
	);

export const binaryPropertyNameField: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	required: true,
	default: 'data',
	hint: 'The name of the output binary field to put the file in',
};

/** The binary field an item's downloaded file goes to (`data` when left empty). */
export const binaryPropertyNameOf = (
	context: IExecuteFunctions,
	itemIndex: number,
	parameter = binaryPropertyNameField.name,
) => String(context.getNodeParameter(parameter, itemIndex, 'data')).trim() || 'data';

/** The "Options" collection of an operation: what most users leave as it is. */
export const optionsField = (options: INodeProperties[]): INodeProperties => ({
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options,
});
