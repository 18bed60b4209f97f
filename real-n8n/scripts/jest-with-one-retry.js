#!/usr/bin/env node
'use strict';
// The lab's suites as CI runs them: every suite once, then each suite that failed once more, in its own n8n
// version (Jest project). A test that fails twice fails the run. A test that passed only on its second run is
// a race to fix, not to hide: each one is listed by name at the end of the output and in RETRIED_FILE.
// The run ends with every suite's time, longest first, and the total.
// Arguments are passed to the first Jest run (e.g. --selectProjects e2e-n8n-2.8.4).
//
//   node scripts/jest-with-one-retry.js [jest arguments]
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const LAB_DIR = path.resolve(__dirname, '..');
const REPO_ROOT = path.resolve(LAB_DIR, '..');
const RETRIED_FILE = path.join(REPO_ROOT, 'test-artifacts', 'lab-retried-tests.txt');
const JEST = path.join(LAB_DIR, 'node_modules', '.bin', 'jest');
const REPORTERS = ['--reporters=default', `--reporters=${path.join(__dirname, 'results-reporter.js')}`];

const say = (message) => console.log(`[lab] ${message}`);

/** Runs Jest with `args`; resolves the exit status and the per-test lines its reporter wrote. */
function runJest(args, label) {
	const resultsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lab-results-')), `${label}.jsonl`);
	const { status, error } = spawnSync(JEST, [...args, ...REPORTERS], {
		cwd: LAB_DIR,
		stdio: 'inherit',
		env: { ...process.env, LAB_RESULTS_FILE: resultsFile },
	});
	if (error) throw error;
	const lines = fs.existsSync(resultsFile)
		? fs.readFileSync(resultsFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))
		: [];
	return { status, lines };
}

const suiteKey = (line) => `${line.project}\n${line.file}`;
const testName = (line) => `${line.project} › ${path.relative(LAB_DIR, line.file)} › ${line.test ?? '(the suite could not run)'}`;
const count = (lines, status) => lines.filter((line) => line.test !== undefined && line.status === status).length;
const minutes = (seconds) => {
	const whole = Math.round(seconds);
	return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
};

/** Every suite's time (the reporter's `seconds` lines), longest first, then their sum and the wall time. */
function printSuiteTimes(runs, wallSeconds) {
	const suites = runs
		.flatMap(({ label, lines }) => lines.filter((line) => line.seconds !== undefined).map((line) => ({ ...line, label })))
		.sort((a, b) => b.seconds - a.seconds);
	console.log('');
	say('Suite times, longest first:');
	for (const suite of suites) {
		const run = suite.label === 'first' ? '' : ' (second run)';
		say(`  ${String(Math.round(suite.seconds)).padStart(5)} s  ${suite.project} › ${path.relative(LAB_DIR, suite.file)}${run}`);
	}
	const sum = suites.reduce((total, suite) => total + suite.seconds, 0);
	say(`${suites.length} suite runs, ${minutes(sum)} together; the lab took ${minutes(wallSeconds)}`);
}

function writeRetried(names) {
	fs.mkdirSync(path.dirname(RETRIED_FILE), { recursive: true });
	const header = '# Lab tests that failed on their first run and passed on their second (jest-with-one-retry.js).\n';
	fs.writeFileSync(RETRIED_FILE, `${header}${names.map((name) => `${name}\n`).join('') || '# none\n'}`);
}

function main() {
	const started = Date.now();
	const wallSeconds = () => (Date.now() - started) / 1000;
	const first = runJest(process.argv.slice(2), 'first');
	const failedSuites = new Map();
	for (const line of first.lines.filter((entry) => entry.status === 'failed')) {
		failedSuites.set(suiteKey(line), { project: line.project, file: line.file });
	}
	if (first.status === 0) {
		printSuiteTimes([{ label: 'first', lines: first.lines }], wallSeconds());
		writeRetried([]);
		say(`${count(first.lines, 'passed')} passed, 0 failed (no suite needed a second run)`);
		return 0;
	}
	if (failedSuites.size === 0) {
		printSuiteTimes([{ label: 'first', lines: first.lines }], wallSeconds());
		say(`Jest exited with ${first.status} without a failed test to run again: failing.`);
		return first.status || 1;
	}

	say(`${failedSuites.size} suite(s) failed; running each once more:`);
	for (const { project, file } of failedSuites.values()) say(`  ${project} › ${path.relative(LAB_DIR, file)}`);
	const byProject = new Map();
	for (const { project, file } of failedSuites.values()) byProject.set(project, [...(byProject.get(project) ?? []), file]);
	const second = { status: 0, lines: [] };
	for (const [project, files] of byProject) {
		// The paths first: after --selectProjects, Jest would read them as more project names.
		const run = runJest([...files, '--runTestsByPath', '--selectProjects', project], `second-${second.lines.length}`);
		second.status ||= run.status;
		second.lines.push(...run.lines);
	}

	// Passed now but not before: it failed, or its suite could not run it.
	const passedFirst = new Set(first.lines.filter((line) => line.status === 'passed').map(testName));
	const retried = second.lines
		.filter((line) => line.status === 'passed' && !passedFirst.has(testName(line)))
		.map(testName);
	const failedTwice = second.lines.filter((line) => line.status === 'failed').map(testName);
	const notRetried = first.lines.filter((line) => !failedSuites.has(suiteKey(line)));
	const finalLines = [...notRetried, ...second.lines];
	writeRetried(retried);

	printSuiteTimes([{ label: 'first', lines: first.lines }, { label: 'second', lines: second.lines }], wallSeconds());
	console.log('');
	if (retried.length > 0) {
		say(`${retried.length} test(s) passed only on their second run (also in ${path.relative(REPO_ROOT, RETRIED_FILE)}); fix them:`);
		for (const name of retried) say(`  RETRIED ${name}`);
	}
	if (failedTwice.length > 0 || second.status !== 0) {
		say(`${failedTwice.length} test(s) failed twice:`);
		for (const name of failedTwice) say(`  FAILED ${name}`);
	}
	say(`${count(finalLines, 'passed')} passed, ${count(finalLines, 'failed')} failed (after one retry of ${failedSuites.size} suite(s))`);
	return second.status === 0 && failedTwice.length === 0 ? 0 : second.status || 1;
}

process.exitCode = main();
