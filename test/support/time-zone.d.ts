/**
 * What `body` returns, run in a new Node process in the IANA time zone `zone`. `body` is the text of a
 * function body; `dist(relativePath)` in it requires a built module (`dist('nodes/shared/runClaims')`).
 * The result travels as JSON (undefined stays undefined).
 */
export function inTimeZone<T = unknown>(zone: string, body: string): T;
