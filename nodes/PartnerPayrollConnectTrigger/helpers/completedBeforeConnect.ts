import type { ICredentialDataDecryptedObject, IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { connectionOf } from '../../shared/authentication';
import { PARTNER_CREDENTIAL } from '../../shared/credentialStore';
import { readableMonth } from '../../shared/month';
import { currentMonthIn, selectedMonths } from '../../shared/watchedMonths';
import { fetchPayrollStatus } from '../../shared/payrollStatus';
import { LOG_PREFIX } from './refusalLog';

// A Partner Payroll Trigger records the months a company has already completed at its first poll of
// that company and fires nothing for them (its baseline): the connect's item names those months, so
// the partner knows which runs the poll will never start.

/** The status requests run after the administrator was answered; they end within this time. */
const CHECK_BUDGET_MS = 10_000;

/** "October 2026", "October 2026 and November 2026". */
const monthList = (months: string[]) => months.map(readableMonth).join(' and ');

/**
 * The months a Partner Payroll Trigger watches by default (Current and Previous Month, in the
 * workflow's time zone) that the newly connected company has already completed, asked with its new
 * token: `completedBeforeConnect` (YYYYMM, oldest first) and a `notice` for the partner. Nothing when
 * none is; a failed check is a notice, never a failed connect. For a company new to the list.
 */
export async function completedBeforeConnect(
	context: IWebhookFunctions,
	partner: ICredentialDataDecryptedObject,
	company: { companyId: string; token: string },
): Promise<IDataObject> {
	const { companyId, token } = company;
	const currentMonth = currentMonthIn(context.getTimezone()) ?? currentMonthIn('UTC')!;
	const watched = selectedMonths('both', currentMonth);
	const connection = connectionOf(partner, {
		credentialType: PARTNER_CREDENTIAL,
		accessToken: token,
		rateLimitAdvice: 'Check these months in the service a minute later.',
		deadline: Date.now() + CHECK_BUDGET_MS,
		signing: { by: 'bearer', helper: 'httpRequest' },
	});
	const completed: string[] = [];
	try {
		for (const month of watched) {
			const { status } = await fetchPayrollStatus(context, connection, companyId, month);
			if (status === 'completed') completed.push(month);
		}
	} catch (error) {
		const why = (error as Error).message;
		context.logger.warn(
			`${LOG_PREFIX} company ${companyId} is connected; whether its months were already completed could not be read: ${why}`,
		);
		return {
			notice: `Whether the payroll of ${monthList(watched)} was already completed for company ${companyId} could not be read (${why}). A Partner Payroll Trigger does not start the workflow for a month already completed at its first poll of the company: check these months.`,
		};
	}
	if (!completed.length) return {};
	const [were, them] = completed.length === 1 ? ['was', 'it'] : ['were', 'them'];
	return {
		completedBeforeConnect: completed,
		notice: `${monthList(completed)} ${were} already completed when company ${companyId} connected: a Partner Payroll Trigger new to the company records ${them} at its first poll and does not start the workflow for ${them}. A Partner Payroll Webhook Trigger with Match Companies of a Partner Credential does, if the service is still retrying the delivery it refused (Svix retries for about 28 hours); otherwise run the workflow for ${them} by hand.`,
	};
}
