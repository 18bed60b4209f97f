import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { PartnerPayrollApiError } from '../../shared/apiError';
import { parameterError } from '../../shared/errors';
import { fetchPayrollStatus, type PayrollStatusAnswer } from '../../shared/payrollStatus';
import { holdRunForPoll, isRunHeld, runKeyOf } from '../../shared/runClaims';
import {
	currentMonthIn,
	parseSpecificMonths,
	selectedMonths,
	type MonthSelection,
} from '../../shared/watchedMonths';
import {
	advancePayrollState,
	readPayrollState,
	sampleMonth,
	type CompanyPayrollState,
} from '../helpers/payrollState';
import { isAheadOfClock, planPoll } from '../helpers/pollPlan';
import { payrollItem, type PayrollItemContext } from '../helpers/pollItems';
import { mayPassLater } from '../helpers/requests';
import type { CompanyCheck, CompanyInPoll, EventDefinition } from './watcher';

// Event `payrollCompleted`: each watched month's payroll status, fired when a month completes (and,
// with the option, when it completes again).

/** The event's parameters, and the month they were read in. */
export interface PayrollSettings {
	/** The workflow's time zone: "current" and "previous" months are its months. */
	timeZone: string;
	currentMonth: string;
	selection: MonthSelection;
	/** The months the parameters choose. */
	selected: string[];
	fireOptions: { fireForAlreadyCompleted: boolean; firstCompletionOnly: boolean };
}

/** Reads and checks the event's parameters, before any request. */
export function readPayrollSettings(context: IPollFunctions): PayrollSettings {
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
	return {
		timeZone,
		currentMonth,
		selection,
		selected: selectedMonths(selection, currentMonth, specificMonths),
		fireOptions: {
			fireForAlreadyCompleted: context.getNodeParameter(
				'options.fireForAlreadyCompleted',
				false,
			) as boolean,
			firstCompletionOnly: context.getNodeParameter(
				'options.firstCompletionOnly',
				false,
			) as boolean,
		},
	};
}

/** One company's watched months against what was stored for it (undefined: its first poll). */
export async function checkPayrolls(
	company: CompanyInPoll,
	settings: PayrollSettings,
	known: CompanyPayrollState | undefined,
): Promise<CompanyCheck> {
	const { selection, selected, currentMonth } = settings;
	if (known && isAheadOfClock(known, currentMonth)) {
		warnClockAhead(company, settings, known.lastPolledMonth);
	}
	const plan = planPoll(known, selection, selected, currentMonth);
	const { answers, dropped, stopped } = await answersOf(company, plan);
	// Nothing answered: the poll failed as a whole (an error execution, see the node).
	if (stopped && (!Object.keys(answers).length || !mayPassLater(stopped))) throw stopped;
	setAsideHeldRuns(company, answers);
	const { state, transitions } = advancePayrollState(
		known,
		{
			selection,
			currentMonth,
			news: plan.news,
			unanswered: plan.watched.filter((month) => !(month in answers) && !dropped.includes(month)),
		},
		answers,
		settings.fireOptions,
	);
	const items = transitions.map((transition) =>
		payrollItem(
			itemContextOf(company, settings),
			transition.month,
			answers[transition.month],
			transition.isRerun,
		),
	);
	holdFiredRuns(company, items);
	return { companyState: state, items, stopped };
}

/**
 * A month whose run the webhook trigger is still handing to n8n is left as if it had not answered:
 * the next poll asks it first. Counted now, it would be lost if n8n dropped that hand-over without
 * an answer (the run stays held until n8n restarts, and this poll's state would say it fired).
 */
function setAsideHeldRuns(company: CompanyInPoll, answers: Record<string, PayrollStatusAnswer>) {
	const workflowId = company.context.getWorkflow().id ?? '';
	for (const [month, answer] of Object.entries(answers)) {
		const key = runKeyOf({ ...answer, companyId: company.companyId, month });
		if (key !== undefined && isRunHeld(workflowId, key)) delete answers[month];
	}
}

/**
 * Holds the runs this check counts as fired until the poll returns them (in the same step as
 * `setAsideHeldRuns`): a delivery that comes meanwhile is answered "retry later" instead of taking a
 * run that this poll's state already says fired.
 */
function holdFiredRuns(company: CompanyInPoll, items: INodeExecutionData[]) {
	const workflowId = company.context.getWorkflow().id ?? '';
	for (const item of items) {
		const key = runKeyOf(item.json);
		if (key !== undefined) holdRunForPoll(company.budget, workflowId, key);
	}
}

/** The polls that logged a stored month ahead of the clock, by their settings (read once a poll). */
const clockAheadWarned = new WeakSet<PayrollSettings>();

/**
 * Logs that a stored month was ahead of this server's clock (advancePayrollState stores the current
 * month instead): once a poll, as the clock set ahead wrote the month of every company it polled.
 */
function warnClockAhead(company: CompanyInPoll, settings: PayrollSettings, storedMonth: string) {
	if (clockAheadWarned.has(settings)) return;
	clockAheadWarned.add(settings);
	company.context.logger.warn(
		`Partner Payroll Trigger: the last polled month stored for company ${company.companyId} (${storedMonth}) is ahead of this server's clock (current month ${settings.currentMonth} in ${settings.timeZone}), so a poll whose clock was set ahead stored it; it was ignored and the current month is stored instead (check the time synchronisation of the n8n servers)`,
	);
}

/** "Fetch Test Event": the latest completed month of those the parameters choose. */
export async function samplePayrolls(
	company: CompanyInPoll,
	settings: PayrollSettings,
): Promise<INodeExecutionData[]> {
	const { answers, stopped } = await answersOf(company, {
		watched: settings.selected,
		carried: [],
	});
	if (stopped) throw stopped;
	const month = sampleMonth(answers);
	return month ? [payrollItem(itemContextOf(company, settings), month, answers[month])] : [];
}

const itemContextOf = (company: CompanyInPoll, settings: PayrollSettings): PayrollItemContext => ({
	companyId: company.companyId,
	timeZone: settings.timeZone,
});

/**
 * The poll's answers until time runs out or a request fails for good. What answered is kept
 * (`stopped` says why the rest did not); a carried month the service refuses (a 4xx about that
 * month) is dropped, so it cannot block the others until it ages out.
 */
async function answersOf(company: CompanyInPoll, plan: { watched: string[]; carried: string[] }) {
	const { context, connection, companyId, budget } = company;
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

/** A 4xx about one month (not a token, scope or rate-limit answer, which concern every month). */
function refusesMonth(error: unknown): boolean {
	const status = error instanceof PartnerPayrollApiError ? Number(error.httpCode) : 0;
	return status >= 400 && status < 500 && ![401, 403, 429].includes(status);
}

/** Event `payrollCompleted`. */
export const payrollCompletedEvent: EventDefinition<PayrollSettings, CompanyPayrollState> = {
	readSettings: readPayrollSettings,
	readState: readPayrollState,
	baseline: 'the baseline',
	check: checkPayrolls,
	sample: samplePayrolls,
};
