// One key per event, the same whichever trigger saw it (the polling trigger or the webhook trigger),
// so the two triggers of one workflow claim a run under it once (runClaims.ts). A re-run's key
// matches across the two only if the webhook's effectiveDate is the status's executionEndDate, which
// the service does not document.

/** An instant as ISO UTC with milliseconds; a date that cannot be read stays as it was written. */
export function isoInstant(date: string): string {
	const instant = Date.parse(date);
	return Number.isNaN(instant) ? date : new Date(instant).toISOString();
}

/** A month's first completion (`laterRunEnd` null), or a later run by the instant it ended. */
export function payrollDedupeKey(companyId: string, month: string, laterRunEnd: string | null) {
	const key = `payroll:${companyId}:${month}`;
	return laterRunEnd === null ? key : `${key}:${isoInstant(laterRunEnd)}`;
}

export const documentDedupeKey = (companyId: string, documentId: string) =>
	`document:${companyId}:${documentId}`;

/** An integration of the company activated or deactivated (webhook trigger only), by its date. */
export const integrationDedupeKey = (companyId: string, change: string, effectiveDate: string) =>
	`integration:${companyId}:${change}:${isoInstant(effectiveDate)}`;
