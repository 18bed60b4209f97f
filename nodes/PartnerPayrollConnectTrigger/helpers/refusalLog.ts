import type { IWebhookFunctions } from 'n8n-workflow';

// Refusals of the connect link (a junk, replayed or forged request) are warnings, and anyone can
// cause them: at most a few lines a minute per logger (n8n gives every node of a process the same
// one), whatever the traffic.

export const LOG_PREFIX = 'Partner Payroll Connect Trigger:';

export const WARNINGS_PER_MINUTE = 10;

const budgets = new WeakMap<object, { minute: number; count: number }>();

/** Logs a refusal at warning level, unless this minute's share is spent. */
export function warnRefusal(context: IWebhookFunctions, text: string, now = Date.now()): void {
	const { logger } = context;
	const minute = Math.floor(now / 60_000);
	const budget = budgets.get(logger) ?? { minute, count: 0 };
	if (budget.minute !== minute) Object.assign(budget, { minute, count: 0 });
	budgets.set(logger, budget);
	budget.count += 1;
	if (budget.count <= WARNINGS_PER_MINUTE) logger.warn(`${LOG_PREFIX} ${text}`);
	else if (budget.count === WARNINGS_PER_MINUTE + 1) {
		logger.warn(`${LOG_PREFIX} more refusals this minute are not logged.`);
	}
}
