// The register of n8n quirks (docs/n8n-quirks.md) and the code that works around them stay in step: every
// tag in the code names a row of the register, and every row is tagged where its workaround lives, so a
// maintainer who upgrades n8n finds each workaround from the table and each reason from the code.
import { projectFilesUnder, readProjectFile } from '../support/release';

const REGISTER = 'docs/n8n-quirks.md';
const TAG = /n8n quirk (Q\d+)\b/g;

/** The tags of the register's table, in the order of its rows. */
function registeredQuirks(): string[] {
	const text = readProjectFile(REGISTER);
	return [...text.matchAll(/^\| (Q\d+) \|/gm)].map((match) => match[1]);
}

/** Every tag in the code, with the files that carry it. */
function taggedQuirks(): Map<string, string[]> {
	const tags = new Map<string, string[]>();
	for (const file of [
		...projectFilesUnder('nodes', '.ts'),
		...projectFilesUnder('credentials', '.ts'),
	]) {
		const text = readProjectFile(file);
		for (const [, quirk] of text.matchAll(TAG)) {
			tags.set(quirk, [...(tags.get(quirk) ?? []), file]);
		}
	}
	return tags;
}

describe(`the register of n8n quirks (${REGISTER})`, () => {
	const registered = registeredQuirks();
	const tagged = taggedQuirks();

	it('has rows, each with its own tag', () => {
		expect(registered.length).toBeGreaterThan(0);
		expect(registered.filter((quirk, index) => registered.indexOf(quirk) !== index)).toEqual([]);
	});

	it('holds every quirk that the code names', () => {
		const unknown = [...tagged].filter(([quirk]) => !registered.includes(quirk));
		expect(unknown).toEqual([]);
	});

	it('has every row tagged where its workaround lives in nodes/ or credentials/', () => {
		expect(registered.filter((quirk) => !tagged.has(quirk))).toEqual([]);
	});
});
