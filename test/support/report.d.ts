/** Writes `text` to the file named by the environment variable `variable`, if it is set (keeping other runs' sections). */
export function writeReportIfAsked(variable: string, text: string): string | undefined;
/** Writes or replaces the section `name` of the file named by `variable`, if it is set. */
export function writeReportSectionIfAsked(
	variable: string,
	name: string,
	text: string,
): string | undefined;
