/** Records the product files entered (paths from the root) while `recording()` is true; see trace-entries.js. */
export function traceFileEntries(folders: string[], recording: () => boolean): string[];
/** Writes `text` to test-artifacts/`name`. */
export function writeArtifact(name: string, text: string): void;
