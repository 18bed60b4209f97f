// Writes a report produced by a test run (for example docs/reliability.md from the fault matrix)
// when the script that runs it asks for one; plain test runs write nothing.
const fs = require('node:fs');
const path = require('node:path');

function writeReportIfAsked(variable, text) {
	const target = process.env[variable];
	if (!target) return undefined;
	const file = path.resolve(__dirname, '../..', target);
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, text);
	return file;
}

module.exports = { writeReportIfAsked };
