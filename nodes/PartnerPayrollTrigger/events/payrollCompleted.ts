import type { IPollFunctions } from 'n8n-workflow';

import { PartnerPayrollApiError } from '../../shared/apiError';
import type { Connection } from '../../shared/connection';
import { parameterError } from '../../shared/errors';
import { payrollItem, type PayrollItemContext } from '../helpers/items';
import {
	currentMonthIn,
	parseSpecificMonths,
	selectedMonths,
	type MonthSelection,
} from '../helpers/months';
import {
	advancePayrollState,
	planPoll,
	readPayrollState,
	sampleMonth,
	type CompanyPayrollState,
	type PayrollStatusAnswer,
} from '../helpers/payrollState';
import type { PollBudget } from '../helpers/pollBudget';
import { fetchPayrollStatus, mayPassLater } from '../helpers/requests';
import type { EventWatcher } from './types';

/** Event `payrollCompleted`: the parameters are read and checked here, before any request. */
export function payrollCompletedWatcher(context: IPollFunctions): EventWatcher {
	const node = context.getNode();
	const timeZone = context.getTimezone();
	const currentMonth = currentMonthIn(timeZone);
	if (!currentMonth) {
		throw parameterError(node, `The workflow time zone "${timeZone}" is not a known time zone`, {
			description: 'Choose a time zone such as Europe/Paris in the workflow settings.',
		});
	}
	const selection = context.getNodeParameter('months', 'both') as MonthSelection;
	const specificMonths =
		selection === 'specific'
			? parseSpecificMonths(context.getNodeParameter('specificMonths', ''), node)
			: [];
	const selected = selectedMonths(selection, currentMonth, specificMonths);
	const fireOptions = {
		fireForAlreadyCompleted: context.getNodeParameter(
			'options.fireForAlreadyCompleted',
			false,
		) as boolean,
		firstCompletionOnly: context.getNodeParameter('options.firstCompletionOnly', false) as boolean,
	};

	/**
	 * The poll's answers until time runs out or a request fails for good. What answered is kept
	 * (`stopped` says why the rest did not); a carried month the service refuses (a 4xx about that
	 * month) is dropped, so it cannot block the others until it ages out.
	 */
	async function answersOf(
		connection: Connection,
		companyId: string,
		plan: { watched: string[]; carried: string[] },
		budget: PollBudget,
	) {
		const answers: Record<string, PayrollStatusAnswer> = {};
		const dropped: string[] = [];
		// One request per month, one after the other: the rate limit is per application, not per token.
		for (const month of plan.watched) {
			try {
				budget.check();
				answers[month] = await fetchPayrollStatus(context, connection, companyId, month);
			} catch (error) {
				if (plan.carried.includes(month) && refusesMonth(error)) {
					context.logger.warn(
						`Partner Payroll Trigger: month ${month} of company ${companyId} is no longer watched: ${(error as Error).message}`,
					);
					dropped.push(month);
					continue;
				}
				return { answers, dropped, stopped: error as Error };
			}
		}
		return { answers, dropped };
	}

	const itemContext = (companyId: string): PayrollItemContext => ({
		companyId,
		timeZone,
	});

	return {
		readState: readPayrollState,

		async check(connection, companyId, knownState, budget) {
			const known = knownState as CompanyPayrollState | undefined;
			if (!known) {
				context.logger.debug(
					`Partner Payroll Trigger: first poll for company ${companyId}, recording the baseline`,
				);
			}
			const plan = planPoll(known, selection, selected, currentMonth);
			const { answers, dropped, stopped } = await answersOf(connection, companyId, plan, budget);
			// Nothing answered: the poll failed as a whole (an error execution, see the node).
			if (stopped && (!Object.keys(answers).length || !mayPassLater(stopped))) throw stopped;
			const { state, transitions } = advancePayrollState(
				known,
				{
					selection,
					currentMonth,
					news: plan.news,
					unanswered: plan.watched.filter(
						(month) => !(month in answers) && !dropped.includes(month),
					),
				},
				answers,
				fireOptions,
			);
			const items = transitions.map((transition) =>
				payrollItem(
					itemContext(companyId),
					transition.month,
					answers[transition.month],
					transition.isRerun,
				),
			);
			return { companyState: state, items, stopped };
		},

		async sample(connection, companyId, budget) {
			const { answers, stopped } = await answersOf(
				connection,
				companyId,
				{ watched: selected, carried: [] },
				budget,
			);
			if (stopped) throw stopped;
			const month = sampleMonth(answers);
			return month ? [payrollItem(itemContext(companyId), month, answers[month])] : [];
		},
	};
}

/** A 4xx about one month (not a token, scope or rate-limit answer, which concern every month). */
function refusesMonth(error: unknown): boolean {
	const status = error instanceof PartnerPayrollApiError ? Number(error.httpCode) : 0;
	return status >= 400 && status < 500 && ![401, 403, 429].includes(status);
}
