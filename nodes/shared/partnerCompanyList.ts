import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { companyName, readCompanyRows } from '../../credentials/partnerCompanies';

/**
 * The Company list of the Partner API credential: ids and labels, never a token. A row that cannot
 * serve requests is listed with its problem, so the user sees it before running the workflow.
 */
export async function listPartnerCompanies(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const rows = readCompanyRows(await this.getCredentials('partnerPayrollPartnerApi'));
	return rows
		.filter((row) => row.companyId !== '')
		.map((row) => ({
			name: row.problem ? `${companyName(row)}: not usable` : companyName(row),
			value: row.companyId,
			...(row.problem ? { description: row.problem } : {}),
		}));
}
