'use strict';
// A Jest reporter that appends one JSON line per test to the file named by LAB_RESULTS_FILE: its project,
// its file, its full name and its status. jest-with-one-retry.js reads it to know which suites to run again
// and which tests passed only on their second run. A suite that could not run at all (a failing beforeAll
// file, a syntax error) is one line with `suiteError`. Each suite also gets one line with its `seconds`, for
// the table of suite times at the end of the run.
const fs = require('node:fs');

class ResultsReporter {
	constructor() {
		this.file = process.env.LAB_RESULTS_FILE;
	}

	onTestResult(test, result) {
		if (!this.file) return;
		const project = test.context.config.displayName?.name ?? 'default';
		const file = result.testFilePath;
		const lines = result.testResults.map((assertion) => ({
			project,
			file,
			test: assertion.fullName,
			status: assertion.status,
		}));
		if (result.testExecError || (result.failureMessage && lines.every((line) => line.status !== 'failed'))) {
			lines.push({ project, file, suiteError: true, status: 'failed' });
		}
		const { start, end } = result.perfStats;
		lines.push({ project, file, seconds: (end - start) / 1000 });
		fs.appendFileSync(this.file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
	}
}

module.exports = ResultsReporter;
