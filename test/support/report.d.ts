/** Writes `text` to the file named by the environment variable `variable`, if it is set. */
export function writeReportIfAsked(variable: string, text: string): string | undefined;
