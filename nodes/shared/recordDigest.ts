import { createHash } from 'crypto';

// The triggers' records in static data hold what they saw (run keys, event keys, message ids) as short
// digests, not as written: n8n reads and parses the workflow's whole static data at every webhook
// delivery and writes it whole for every new event, so the record's size is paid on each one. Twelve
// base64url characters are 72 bits: among the few thousand entries a record keeps, two texts share a
// digest with a probability below 1e-13.

/** The stored form of one entry of a trigger's record. */
export const recordDigest = (text: string): string =>
	createHash('sha256').update(text).digest('base64url').slice(0, 12);

/** The digests a stored list holds, whatever static data holds (nothing, or another shape: none). */
export const storedDigests = (stored: unknown): string[] =>
	Array.isArray(stored) ? stored.filter((entry): entry is string => typeof entry === 'string') : [];
