import { changeCompanyList, withoutCompany } from '../../../shared/credentialStore';
import { failureError, parameterError } from '../../../shared/errors';
import { checkedId } from '../../../shared/ids';
import type { Operation } from '../resource';

/**
 * Takes a company out of the Partner API credential's list through n8n's public API, so nobody
 * deletes a row in the editor (which would move the tokens below it to other companies). Every
 * other row is written back with its real values, in place.
 */
export const removeCompany: Operation = {
	option: {
		name: 'Remove Company',
		value: 'removeCompany',
		action: 'Remove a company from the partner credential',
		description:
			"Removes the company's row (ID, label and token) from the Partner API credential, through n8n's public API",
	},
	fields: [],
	oneItemAtATime: true,
	async execute(itemIndex, connection) {
		const node = this.getNode();
		if (!connection.partner) {
			throw parameterError(
				node,
				'Remove Company works on the Partner API credential: set Authentication to Partner API (Many Companies).',
				{ itemIndex },
			);
		}
		const typed = String(this.getNodeParameter('companyId', itemIndex, '') ?? '').trim();
		if (typed === '') throw failureError(node, 'partnerCompanyMissing', {}, itemIndex);
		// Not the list's own check: a broken row (a moved token, say) is exactly what may be removed.
		const companyId = checkedId(typed, 'Company', node, itemIndex);
		const removed = await changeCompanyList(
			this,
			(rows) => {
				const { rows: written, removed: rowsOut } = withoutCompany(rows, companyId);
				return { rows: written, result: rowsOut };
			},
			(rows) => !rows.some((row) => row.companyId === companyId),
		);
		return [
			{
				json: {
					companyId,
					// The removed row's label: the company is no longer in the list to be looked up.
					companyLabel: String(removed[0]?.label ?? '') || null,
					removed: removed.length > 0,
				},
			},
		];
	},
};
