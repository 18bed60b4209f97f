// Writes a report produced by a test run (for example docs/reliability.md from the fault matrix)
// when the script that runs it asks for one; plain test runs write nothing. A report may hold
// sections written by other runs (between `<!-- section: name -->` and `<!-- end: name -->`): a
// whole report written again keeps them, and each run rewrites only its own section.
const fs = require('node:fs');
const path = require('node:path');

const SECTION = /<!-- section: ([\w-]+) -->[\s\S]*?<!-- end: \1 -->\n?/g;

function targetOf(variable) {
	const target = process.env[variable];
	if (!target) return undefined;
	const file = path.resolve(__dirname, '../..', target);
	fs.mkdirSync(path.dirname(file), { recursive: true });
	return file;
}

const existing = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');

function writeReportIfAsked(variable, text) {
	const file = targetOf(variable);
	if (!file) return undefined;
	const sections = existing(file).match(SECTION) ?? [];
	const kept = sections.length ? `\n${sections.join('\n')}` : '';
	fs.writeFileSync(file, `${text.replace(/\n*$/, '\n')}${kept}`);
	return file;
}

function writeReportSectionIfAsked(variable, name, text) {
	const file = targetOf(variable);
	if (!file) return undefined;
	const section = `<!-- section: ${name} -->\n${text.replace(/\n*$/, '\n')}<!-- end: ${name} -->\n`;
	const before = existing(file);
	const others = before.replace(SECTION, (match, sectionName) =>
		sectionName === name ? '\u0000' : match,
	);
	const after = others.includes('\u0000')
		? others.replace('\u0000', section)
		: `${others.replace(/\n*$/, '\n')}\n${section}`;
	fs.writeFileSync(file, after);
	return file;
}

module.exports = { writeReportIfAsked, writeReportSectionIfAsked };
