import type { IPollFunctions } from 'n8n-workflow';

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
	withCompanyState,
	type PayrollStatusAnswer,
} from '../helpers/payrollState';
import type { PollBudget } from '../helpers/pollBudget';
import { fetchPayrollStatus } from '../helpers/requests';
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
		fireOnRerun: context.getNodeParameter('options.fireOnRerun', false) as boolean,
	};

	// One request per month, one after the other: the rate limit is per application, not per token.
	async function statusesOf(
		connection: Connection,
		companyId: string,
		months: string[],
		budget: PollBudget,
	) {
		const answers: Record<string, PayrollStatusAnswer> = {};
		for (const month of months) {
			budget.check();
			answers[month] = await fetchPayrollStatus(context, connection, companyId, month);
		}
		return answers;
	}

	const itemContext = (companyId: string): PayrollItemContext => ({
		companyId,
		timeZone,
	});

	return {
		async check(connection, companyId, stored, budget) {
			const previous = readPayrollState(stored);
			const known = previous?.companies[companyId];
			if (!known) {
				context.logger.debug(
					`Partner Payroll Trigger: first poll for company ${companyId}, recording the baseline`,
				);
			}
			const plan = planPoll(known, selection, selected, currentMonth);
			const answers = await statusesOf(connection, companyId, plan.watched, budget);
			const { state, transitions } = advancePayrollState(
				known,
				{ selection, currentMonth, news: plan.news },
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
			return { state: withCompanyState(previous, companyId, state), items };
		},

		async sample(connection, companyId, budget) {
			const answers = await statusesOf(connection, companyId, selected, budget);
			const month = sampleMonth(answers);
			return month ? [payrollItem(itemContext(companyId), month, answers[month])] : [];
		},
	};
}
