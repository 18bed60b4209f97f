import { rowsWithTheirTokens } from '../../../../credentials/companyListWrite';
import { readCompanyRows } from '../../../../credentials/partnerCompanies';
import { changeCompanyList } from '../../../shared/credentialStore';
import { parameterError } from '../../../shared/errors';
import type { Operation } from '../resource';

/**
 * Puts each token back in its own company's row through n8n's public API, after rows were deleted or
 * reordered in n8n's editor (which gives saved tokens back to rows by position). The nodes already
 * find each token by its binding; the repair makes the list read as it works again, so that a later
 * edit in the editor moves nothing that was already moved. A token n8n dropped cannot come back: those
 * companies are named, to be connected again.
 */
export const repairCompanyList: Operation = {
	withoutCompany: true,
	option: {
		name: 'Repair Company List',
		value: 'repairCompanyList',
		action: "Put each token back in its company's row",
		description:
			"Puts each company's token back in its own row of the Partner API credential, through n8n's public API, after rows were deleted or reordered in n8n's editor",
	},
	fields: [],
	oneItemAtATime: true,
	async execute(itemIndex, connection) {
		if (!connection.partner) {
			throw parameterError(
				this.getNode(),
				'Repair Company List works on the Partner API credential: set Authentication to Partner API (Many Companies).',
				{ itemIndex },
			);
		}
		let served: string[] = [];
		const movedBack = await changeCompanyList(
			this,
			(rows) => {
				const written = rowsWithTheirTokens(rows);
				served = readCompanyRows({ companies: { company: written } })
					.filter((row) => row.accessToken !== undefined)
					.map((row) => row.companyId);
				const moved = written.filter(
					(row, index) =>
						row.accessToken !== '' && row.accessToken !== String(rows[index].accessToken ?? ''),
				);
				return { rows: written, result: moved.map((row) => row.companyId) };
			},
			// Every company the repaired list serves is served as read back.
			(rows) => {
				const usable = new Set(
					rows.filter((row) => row.accessToken !== undefined).map((row) => row.companyId),
				);
				return served.every((companyId) => usable.has(companyId));
			},
		);
		const rows = readCompanyRows(await this.getCredentials('partnerPayrollPartnerApi'));
		const notConnected = rows
			.filter((row) => row.problem !== undefined)
			.map(({ companyId, label, problem }) => ({ companyId, label, problem }));
		return [
			{
				json: {
					companies: rows.length,
					connected: rows.length - notConnected.length,
					movedBack,
					notConnected,
				},
			},
		];
	},
};
