import type { INode } from 'n8n-workflow';

import { failureError } from '../../shared/errors';

/** A poll ends within this time, far below n8n's one-minute polling, and never runs into the next. */
export const POLL_BUDGET_MS = 30_000;

/**
 * The time one poll may take. Its requests get `deadline` (the shared transport stops attempts and
 * waits there); between requests the trigger checks it itself, so a poll never starts a request late.
 */
export class PollBudget {
	readonly deadline: number;

	constructor(
		private readonly node: INode,
		budgetMs = POLL_BUDGET_MS,
	) {
		this.deadline = Date.now() + budgetMs;
	}

	get isSpent(): boolean {
		return Date.now() >= this.deadline;
	}

	/** Before a request whose answer the poll cannot do without: past the budget, the poll fails. */
	check(): void {
		if (!this.isSpent) return;
		throw failureError(this.node, 'pollBudget', { seconds: POLL_BUDGET_MS / 1000 });
	}
}
