/** Every `.ts` file below the project's `folders` (declaration files left out), with its path from the root. */
export function typeScriptSources(folders: string[]): Array<{ path: string; text: string }>;
