import { DateTime } from 'luxon';

// The service's date-times (a payroll status's `executionEndDate`, a webhook's `effectiveDate`) name
// instants. Its examples carry an offset; one without is read as UTC, never in this server's zone,
// so the polling and the webhook trigger give one run one key wherever n8n runs.

/** The instant an ISO 8601 date-time (with a time of day) names, in UTC; undefined otherwise. */
export function serviceInstant(text: string): DateTime | undefined {
	const trimmed = text.trim();
	if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(trimmed)) return undefined;
	const instant = DateTime.fromISO(trimmed, { zone: 'utc', setZone: true });
	return instant.isValid ? instant.toUTC() : undefined;
}
