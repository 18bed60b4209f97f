// The register of n8n quirks (docs/n8n-quirks.md) and the code that works around them stay in step: every
// tag in the code names a row of the register, and every row is tagged where its workaround lives, so a
// maintainer who upgrades n8n finds each workaround from the table and each reason from the code.
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const REGISTER = 'docs/n8n-quirks.md';
const TAG = /n8n quirk (Q\d+)\b/g;

function sourceFiles(folder: string): string[] {
	return fs.readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.join(folder, entry.name);
		if (entry.isDirectory()) return sourceFiles(relative);
		return entry.name.endsWith('.ts') ? [relative] : [];
	});
}

/** The tags of the register's table, in the order of its rows. */
function registeredQuirks(): string[] {
	const text = fs.readFileSync(path.join(root, REGISTER), 'utf8');
	return [...text.matchAll(/^\| (Q\d+) \|/gm)].map((match) => match[1]);
}

/** Every tag in the code, with the files that carry it. */
function taggedQuirks(): Map<string, string[]> {
	const tags = new Map<string, string[]>();
	for (const file of [...sourceFiles('nodes'), ...sourceFiles('credentials')]) {
		const text = fs.readFileSync(path.join(root, file), 'utf8');
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
