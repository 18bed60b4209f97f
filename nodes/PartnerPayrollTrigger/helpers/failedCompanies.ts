import { NodeOperationError, type INode } from 'n8n-workflow';

import { companyName } from '../../../credentials/partnerCompanies';
import type { CompanyIdentity } from '../../shared/connectionHealth';

// The error execution of a poll over the Partner API credential's companies in which none answered.

/** A company whose check failed this poll for a reason other than its connection (a 5xx, a timeout, a scope). */
export interface CompanyFailure {
	company: CompanyIdentity;
	error: Error;
}

/** Companies an error execution names with their reasons; the others are counted. */
export const NAMED_FAILURES = 10;

/** "FR1001 (Boulangerie)", or "FR1001" for a company without a label (the trigger uses its id as its label). */
const nameOf = ({ companyId, label }: CompanyIdentity) =>
	companyName({ companyId, label: label === companyId ? '' : label });

/**
 * No company answered: the companies and their reasons, at most `NAMED_FAILURES` named and the rest
 * counted; the first failure's description says what to do about it.
 */
export function everyCompanyFailedError(
	node: INode,
	failures: CompanyFailure[],
): NodeOperationError {
	const named = failures
		.slice(0, NAMED_FAILURES)
		.map(({ company, error }) => `${nameOf(company)}: ${error.message}`);
	const others = failures.length - named.length;
	const companies = failures.length === 1 ? '1 company' : `${failures.length} companies`;
	const first = failures[0]?.error as Error & { description?: string | null };
	return new NodeOperationError(
		node,
		`${companies} failed this poll and none answered: ${named.join('; ')}${others ? `; and ${others} more` : ''}`,
		{
			description: `They are checked again at the next poll. ${first?.description ?? ''}`.trim(),
		},
	);
}
