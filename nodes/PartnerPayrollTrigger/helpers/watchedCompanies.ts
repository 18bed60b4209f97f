import type { IPollFunctions } from 'n8n-workflow';

import type { CompanyIdentity } from '../../shared/connectionHealth';
import type { ListedCompany } from '../../shared/connection';
import { parameterError } from '../../shared/errors';

// Which companies of the Partner API credential a poll watches (the Companies parameter).

/** A company of the credential the trigger watches: its id and label, or its row's problem. */
export interface WatchedCompany extends CompanyIdentity {
	problem?: string;
}

/**
 * The companies the Companies parameter chooses, in the credential's order: every row with a
 * Company ID, or those selected. A selected company that left the credential is not watched.
 */
export function watchedCompanies(context: IPollFunctions, rows: ListedCompany[]): WatchedCompany[] {
	const scope = String(context.getNodeParameter('companies', 'all'));
	const listed = rows.filter((row) => row.companyId !== '');
	let chosen = listed;
	if (scope === 'selected') {
		// An expression may give "FR1001,GB3001" instead of a list.
		const value = context.getNodeParameter('companyIds', []) as unknown;
		const selected = (Array.isArray(value) ? value : String(value ?? '').split(','))
			.map((companyId) => String(companyId).trim())
			.filter(Boolean);
		if (!selected.length) {
			throw parameterError(
				context.getNode(),
				'Selected Companies needs at least one company of the credential',
				{ description: 'Choose companies from the list, or set Companies to All Companies.' },
			);
		}
		chosen = listed.filter((row) => selected.includes(row.companyId));
	}
	const skipped = rows.length - listed.length;
	if (skipped) {
		context.logger.warn(
			`Partner Payroll Trigger: ${skipped} row(s) of the credential's company list have no Company ID and are not watched`,
		);
	}
	if (!chosen.length) {
		context.logger.warn(
			'Partner Payroll Trigger: no company of the credential is watched (the list is empty, or no selected company is in it)',
		);
	}
	return chosen.map((row) => ({
		companyId: row.companyId,
		label: row.label || row.companyId,
		...(row.problem ? { problem: row.problem } : {}),
	}));
}
