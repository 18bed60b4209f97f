import type { INodeExecutionData } from 'n8n-workflow';

import type { History, MonthsRule } from './histories';
import { addMonths, type HistoryRun, type PollRecord } from './runner';
import type { ModelService } from './service';

// The reference model: the promise of issue 19, checked against what a history observed and
// emitted. It knows nothing of the trigger's state; where the promise depends on what the trigger
// can remember (baselines), it keeps the least any correct trigger must remember: what a poll that
// ended normally observed, kept across a restart only if a poll that emitted items came after it.
//
// Payroll Completed. A run is (company, month, executionEndDate as an instant).
//  - No duplicate: each run at most once.
//  - No loss: each run a poll that ended normally observed is emitted by the end of the history,
//    unless it is a baseline and Fire for Months Already Completed is off. A run is a baseline when
//    it was observed while the trigger could not remember its month: no remembered poll of the
//    company, a month an edit of Months/time zone added, or a selected month that no remembered
//    poll got an answer for. A month the calendar brought in (same settings) is never a baseline.
//  - No loss of what no poll asked about: a month the trigger must still watch at the end of the
//    history (for the company watched then, within 12 months of the current month) is owed the run
//    it has then, even if no poll observed that run. A remembered poll of a company starts watching:
//     (a) every month it got an answer for, not completed, and not after its current month (a month
//         watched and not completed stays watched, whatever the selection or time zone became);
//     (b) when the company's remembered poll before it had a relative selection (Current and
//         Previous, Current, Previous Month) in the same time zone, every month that selection
//         named between the two polls (after the newest it named at the earlier one, up to the newest
//         it names at this one) that no remembered poll of the company ever got an answer for: an
//         outage across a month boundary is caught up, and such a month is news.
//    A month stays watched until a remembered poll observes it completed (from then on, only runs
//    observed are owed, by the rule above) or it falls more than 12 months behind. A restart forgets
//    what only unsaved polls started, as for the rest. Left out, for want of a clear promise: a month
//    first seen after the poll's current month (a future Specific Month) that the selection then
//    dropped, and the catch-up across a time zone edit (which months were current between the two
//    polls depends on when the edit happened, which no poll saw).
//  - With firstCompletionOnly, at most one run per (company, month), and one if the first run
//    observed of the month is owed (a recorded baseline is the month's first completion); a run no
//    poll observed is owed only if no run of its month was observed or emitted.
//  - Items: isRerun iff an earlier run of the month was emitted; executionEndDate as sent;
//    dedupeKey and source checked when present.
// New Document. Each (company, documentId) at most once; every document a poll that ended normally
// listed, and whose company and listing are still watched at the end, is emitted, unless it was
// listed while the trigger could not remember the company or that listing and Fire for Documents
// Already Listed is off. With Attach PDF: `pdfError` on every item,
// null with the file's exact bytes, or a message only after a permanent error (4xx other than 429),
// 24 hours after the document was first listed, or once its listing is no longer watched.

export type Property =
	| 'payroll: duplicate'
	| 'payroll: loss'
	| 'payroll: phantom'
	| 'payroll: item fields'
	| 'payroll: firstCompletionOnly'
	| 'document: duplicate'
	| 'document: loss'
	| 'document: phantom'
	| 'pdf: pdfError field'
	| 'pdf: bytes'
	| 'pdf: early pdfError'
	| 'final poll failed';

export const PROPERTIES: Property[] = [
	'payroll: duplicate',
	'payroll: loss',
	'payroll: phantom',
	'payroll: item fields',
	'payroll: firstCompletionOnly',
	'document: duplicate',
	'document: loss',
	'document: phantom',
	'pdf: pdfError field',
	'pdf: bytes',
	'pdf: early pdfError',
	'final poll failed',
];

export interface Violation {
	property: Property;
	detail: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The promise holds for months within 12 months of the current one (the trigger's bound). */
function inBounds(month: string, poll: PollRecord): boolean {
	return month >= addMonths(poll.currentMonth, -12) && month <= addMonths(poll.currentMonth, 12);
}

/** What the trigger must at least remember of a company (Payroll Completed). */
interface PayrollKnowledge {
	months: Set<string>;
	configKey: string;
	selected: Set<string>;
	/** The last remembered poll of the company: its number, Months rule, zone and current month. */
	poll: number;
	rule: MonthsRule;
	zone: string;
	currentMonth: string;
	/** Months any remembered poll of the company got an answer for. */
	answered: Set<string>;
	/** Months the trigger must keep asking about until it sees them completed, with the reason. */
	watched: Map<string, string>;
}

const RELATIVE: MonthsRule[] = ['both', 'current', 'previous'];

/** The newest month a relative Months rule names when the current month is `current`. */
const newestOf = (rule: MonthsRule, current: string) =>
	rule === 'previous' ? addMonths(current, -1) : current;

const copyMap = <T>(map: Map<string, T>, copy: (value: T) => T) =>
	new Map([...map].map(([key, value]) => [key, copy(value)]));

const copyPayroll = (known: PayrollKnowledge): PayrollKnowledge => ({
	...known,
	months: new Set(known.months),
	selected: new Set(known.selected),
	answered: new Set(known.answered),
	watched: new Map(known.watched),
});

/**
 * What a remembered poll leaves watched (see the header, (a) and (b)): what was watched before, the
 * months a relative selection named since the company's last remembered poll in the same zone, and
 * those the poll saw not completed; minus those it saw completed.
 */
function watchedAfter(
	known: PayrollKnowledge | undefined,
	poll: PollRecord,
	statuses: Array<{ month: string; end: number | null }>,
): { watched: Map<string, string>; answered: Set<string> } {
	const watched = new Map(known?.watched ?? []);
	const answered = new Set(known?.answered ?? []);
	if (known && RELATIVE.includes(known.rule) && known.zone === poll.zone) {
		const newest = newestOf(known.rule, poll.currentMonth);
		for (
			let month = addMonths(newestOf(known.rule, known.currentMonth), 1);
			month <= newest;
			month = addMonths(month, 1)
		) {
			if (!answered.has(month) && !watched.has(month))
				watched.set(
					month,
					`${known.rule} (${poll.zone}) brought it in between polls #${known.poll} and #${poll.number}`,
				);
		}
	}
	for (const status of statuses) {
		answered.add(status.month);
		if (status.end !== null) watched.delete(status.month);
		else if (status.month <= poll.currentMonth && !watched.has(status.month))
			watched.set(status.month, `poll #${poll.number} saw it not completed`);
	}
	return { watched, answered };
}

function checkPayroll(history: History, run: HistoryRun, violations: Violation[]) {
	const { fireForAlreadyCompleted, firstCompletionOnly } = history.payrollOptions;
	let live = new Map<string, PayrollKnowledge>();
	let saved = new Map<string, PayrollKnowledge>();
	/** Runs observed by polls that ended normally: key → baseline or owed. */
	const observed = new Map<
		string,
		{
			company: string;
			month: string;
			end: number;
			baseline: boolean;
			poll: number;
			later?: boolean;
		}
	>();
	/** Texts each run was sent as, in any poll. */
	const texts = new Map<string, Set<string>>();
	const emitted = new Map<string, number>();
	const emittedMonths = new Map<string, number>();

	for (const event of run.trace) {
		if (event.kind === 'rebuild') {
			live = copyMap(saved, copyPayroll);
			continue;
		}
		const poll = event.poll;
		const statuses = poll.observations.filter((observation) => observation.kind === 'status');
		for (const status of statuses) {
			if (status.end === null || status.text === null) continue;
			const key = `${status.company}|${status.month}|${status.end}`;
			if (!texts.has(key)) texts.set(key, new Set());
			texts.get(key)!.add(status.text);
		}
		if (poll.outcome !== 'error') {
			const known = live.get(poll.company);
			for (const status of statuses) {
				if (status.end === null || !inBounds(status.month, poll)) continue;
				// Never seen by a remembered poll: the first poll of the company, a month an edit of
				// Months or time zone added, or a selected month no poll got an answer for yet. A month
				// the calendar brought in under the same settings is not a baseline.
				const baseline =
					!known ||
					(!known.months.has(status.month) &&
						(known.configKey !== poll.configKey || known.selected.has(status.month)));
				const key = `${status.company}|${status.month}|${status.end}`;
				const entry = observed.get(key);
				if (entry) entry.baseline ||= baseline;
				else
					observed.set(key, {
						company: status.company,
						month: status.month,
						end: status.end,
						baseline,
						poll: poll.number,
					});
			}
			// What it knew of a selected month that did not answer this time (a partial poll) stays;
			// a poll without any answer teaches nothing (not even that the company was polled).
			const kept = [...(known?.months ?? [])].filter((month) => poll.selected.includes(month));
			if (statuses.length)
				live.set(poll.company, {
					months: new Set([...statuses.map((status) => status.month), ...kept]),
					configKey: poll.configKey,
					selected: new Set(poll.selected),
					poll: poll.number,
					rule: poll.months,
					zone: poll.zone,
					currentMonth: poll.currentMonth,
					...watchedAfter(known, poll, statuses),
				});
		}
		if (poll.outcome === 'items') saved = copyMap(live, copyPayroll);

		for (const item of poll.items) {
			const json = item.json;
			const where = `poll #${poll.number}: ${String(json.companyId)} ${String(json.month)} ${String(json.executionEndDate)}`;
			const end = Date.parse(String(json.executionEndDate));
			const month = String(json.month);
			const company = String(json.companyId);
			const key = `${company}|${month}|${end}`;
			const monthKey = `${company}|${month}`;
			if (company !== poll.company) {
				violations.push({
					property: 'payroll: item fields',
					detail: `${where}: companyId is not the watched company ${poll.company}`,
				});
			}
			if (
				json.status !== 'completed' ||
				Number.isNaN(end) ||
				!run.service.isCompletedRun(company, month, end)
			) {
				violations.push({
					property: 'payroll: phantom',
					detail: `${where}: the service never had this run`,
				});
				continue;
			}
			if (!inBounds(month, poll)) continue;
			if (emitted.has(key)) {
				violations.push({
					property: 'payroll: duplicate',
					detail: `${where}: already emitted by poll #${emitted.get(key)}`,
				});
				continue;
			}
			const earlier = emittedMonths.get(monthKey);
			if (earlier !== undefined && firstCompletionOnly) {
				violations.push({
					property: 'payroll: firstCompletionOnly',
					detail: `${where}: a run of this month was emitted by poll #${earlier}`,
				});
			}
			if (json.isRerun !== (earlier !== undefined)) {
				violations.push({
					property: 'payroll: item fields',
					detail: `${where}: isRerun is ${String(json.isRerun)}`,
				});
			}
			if (!texts.get(key)?.has(String(json.executionEndDate))) {
				violations.push({
					property: 'payroll: item fields',
					detail: `${where}: executionEndDate is not a text the service sent`,
				});
			}
			if ('dedupeKey' in json) {
				const expected =
					earlier === undefined
						? `payroll:${company}:${month}`
						: `payroll:${company}:${month}:${new Date(end).toISOString()}`;
				if (json.dedupeKey !== expected) {
					violations.push({
						property: 'payroll: item fields',
						detail: `${where}: dedupeKey ${String(json.dedupeKey)}, expected ${expected}`,
					});
				}
			}
			if ('source' in json && json.source !== 'poll') {
				violations.push({
					property: 'payroll: item fields',
					detail: `${where}: source ${String(json.source)}`,
				});
			}
			emitted.set(key, poll.number);
			if (earlier === undefined) emittedMonths.set(monthKey, poll.number);
		}
	}

	// With firstCompletionOnly, only the first run observed of a month may be owed: a baseline
	// recorded without firing is the month's first completion too, and later runs never fire.
	const firstRuns = new Set<string>();
	for (const entry of observed.values()) {
		const monthKey = `${entry.company}|${entry.month}`;
		if (firstRuns.has(monthKey)) entry.later = true;
		firstRuns.add(monthKey);
	}
	for (const [key, entry] of observed) {
		const owed = fireForAlreadyCompleted || !entry.baseline;
		if (!owed || (firstCompletionOnly && entry.later)) continue;
		const what = `${entry.company} ${entry.month} ${new Date(entry.end).toISOString()} (observed by poll #${entry.poll}${entry.baseline ? ', a baseline' : ''})`;
		if (firstCompletionOnly) {
			if (!emittedMonths.has(`${entry.company}|${entry.month}`)) {
				violations.push({
					property: 'payroll: loss',
					detail: `${what}: no run of this month was emitted`,
				});
			}
		} else if (!emitted.has(key)) {
			violations.push({ property: 'payroll: loss', detail: `${what}: never emitted` });
		}
	}

	// The months still watched at the end: the run each has now is owed, observed or not.
	const polls = run.trace.flatMap((event) => (event.kind === 'poll' ? [event.poll] : []));
	const last = polls.at(-1);
	if (!last) return;
	// Dropped more than 12 months behind (the newest current month of any poll: the most lenient).
	const newestCurrent = polls.map((poll) => poll.currentMonth).sort()[polls.length - 1];
	const oldest = addMonths(newestCurrent, -12);
	for (const [month, why] of live.get(last.company)?.watched ?? []) {
		const end = run.service.completedRun(last.company, month);
		if (end === null || month < oldest) continue;
		const key = `${last.company}|${month}|${end}`;
		const monthKey = `${last.company}|${month}`;
		if (observed.has(key) || emitted.has(key)) continue;
		if (
			firstCompletionOnly &&
			(emittedMonths.has(monthKey) ||
				[...observed.values()].some(
					(entry) => entry.company === last.company && entry.month === month,
				))
		)
			continue;
		violations.push({
			property: 'payroll: loss',
			detail: `${last.company} ${month} ${new Date(end).toISOString()}: watched (${why}), never asked about`,
		});
	}
}

function pdfBytes(item: INodeExecutionData): Buffer | undefined {
	const binary = item.binary?.data;
	return binary ? Buffer.from(binary.data, 'base64') : undefined;
}

function checkDocuments(history: History, run: HistoryRun, violations: Violation[]) {
	const { fireForExisting, attachPdf } = history.documentOptions;
	const service: ModelService = run.service;
	let live = new Map<string, Set<string>>();
	let saved = new Map<string, Set<string>>();
	const observed = new Map<string, { baseline: boolean; poll: number }>();
	const firstListed = new Map<string, number>();
	const permanentlyFailed = new Set<string>();
	const emitted = new Map<string, number>();

	for (const event of run.trace) {
		if (event.kind === 'rebuild') {
			live = copyMap(saved, (types) => new Set(types));
			continue;
		}
		const poll: PollRecord = event.poll;
		const listings = poll.observations.filter((observation) => observation.kind === 'listing');
		for (const listing of listings) {
			for (const documentId of listing.documentIds) {
				const key = `${listing.company}|${documentId}`;
				if (!firstListed.has(key)) firstListed.set(key, listing.at);
			}
		}
		for (const pdf of poll.observations) {
			if (pdf.kind === 'pdf' && pdf.status >= 400 && pdf.status < 500 && pdf.status !== 429) {
				permanentlyFailed.add(`${pdf.company}|${pdf.documentId}`);
			}
		}
		if (poll.outcome !== 'error') {
			const known = live.get(poll.company);
			for (const listing of listings) {
				const baseline = !known || !known.has(listing.type);
				for (const documentId of listing.documentIds) {
					const key = `${listing.company}|${documentId}`;
					const entry = observed.get(key);
					if (entry) entry.baseline ||= baseline;
					else observed.set(key, { baseline, poll: poll.number });
				}
			}
			if (listings.length) live.set(poll.company, new Set(listings.map((listing) => listing.type)));
		}
		if (poll.outcome === 'items') saved = copyMap(live, (types) => new Set(types));

		for (const item of poll.items) {
			const json = item.json;
			const company = String(json.companyId);
			const documentId = String(json.documentId);
			const key = `${company}|${documentId}`;
			const where = `poll #${poll.number}: ${company} ${documentId}`;
			const document = service.documents.get(key);
			if (!document || document.addedAt > poll.endedAt || company !== poll.company) {
				violations.push({
					property: 'document: phantom',
					detail: `${where}: not a document of the watched company's listings`,
				});
				continue;
			}
			if (emitted.has(key)) {
				violations.push({
					property: 'document: duplicate',
					detail: `${where}: already emitted by poll #${emitted.get(key)}`,
				});
				continue;
			}
			emitted.set(key, poll.number);
			if (!attachPdf) continue;
			const bytes = pdfBytes(item);
			if (!('pdfError' in json)) {
				violations.push({
					property: 'pdf: pdfError field',
					detail: `${where}: no pdfError field (${bytes ? 'with' : 'without'} a file)`,
				});
			}
			const pdfError = json.pdfError ?? null;
			if (pdfError === null) {
				if (!bytes || !bytes.equals(document.bytes)) {
					violations.push({
						property: 'pdf: bytes',
						detail: `${where}: ${bytes ? 'other bytes than the PDF' : 'no file and no pdfError'}`,
					});
				}
			} else {
				const listedFor = poll.endedAt - (firstListed.get(key) ?? poll.endedAt);
				// A document of a listing the user stopped watching will not be retried: a final
				// pdfError is as good an end as any (the model does not owe it at all).
				const unwatched = !poll.types.includes(document.type);
				if (!permanentlyFailed.has(key) && listedFor < DAY_MS && !unwatched) {
					violations.push({
						property: 'pdf: early pdfError',
						detail: `${where}: pdfError "${String(pdfError).slice(0, 100)}" after ${Math.round(listedFor / 60_000)} min, without a permanent error`,
					});
				}
			}
		}
	}

	// Documents of a listing or company the node no longer watches at the end are not owed: the
	// trigger stops asking for them (they are owed again once watched again).
	const last = [...run.trace].reverse().find((event) => event.kind === 'poll')?.poll;
	for (const [key, entry] of observed) {
		if (!fireForExisting && entry.baseline) continue;
		const document = service.documents.get(key);
		if (!last || document?.company !== last.company || !last.types.includes(document.type))
			continue;
		if (!emitted.has(key)) {
			violations.push({
				property: 'document: loss',
				detail: `${key.replace('|', ' ')} (listed by poll #${entry.poll}${entry.baseline ? ', a baseline' : ''}): never emitted`,
			});
		}
	}
}

/** Every way the history broke the promise. */
export function check(history: History, run: HistoryRun): Violation[] {
	const violations: Violation[] = [];
	for (const event of run.trace) {
		if (event.kind === 'poll' && event.poll.final && event.poll.outcome === 'error') {
			violations.push({
				property: 'final poll failed',
				detail: `poll #${event.poll.number} (no fault): ${event.poll.error}`,
			});
		}
	}
	if (history.event === 'payrollCompleted') checkPayroll(history, run, violations);
	else checkDocuments(history, run, violations);
	return violations;
}
