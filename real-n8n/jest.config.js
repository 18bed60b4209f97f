// The lab's suites: the end-to-end suites inside a real n8n, once per version of the compatibility matrix
// (lib/runtimes.js), and queue mode (main, two workers, Redis, Postgres) in the newest n8n. They run the
// built package (`npm run build` at the repository's root), packed and installed as a community package.
const { RUNTIMES, n8nRuntime } = require('./lib/runtimes');

const QUEUE_TESTS = '<rootDir>/test/queue/';
// Issue 37's month-end suites (test/partner-month-end.test.js and its queue twin) run on demand only
// (`npm run test:month-end`): 7 to 13 minutes for the three rows together (most of it n8n 2.40's one-minute
// poll schedule), more than the default lab's time budget leaves (CONTRIBUTING.md, "The lab").
const MONTH_END_TESTS = process.env.LAB_MONTH_END === '1' ? [] : ['partner-month-end'];
// The version recipes are package.json files too: jest must not see two packages of one name.
const modulePathIgnorePatterns = ['<rootDir>/n8n/', '<rootDir>/n8n-newest/'];
const project = (options) => ({ testEnvironment: 'node', modulePathIgnorePatterns, ...options });

/** The end-to-end suites in one n8n version: E2E_N8N tells lib/ which one. */
const e2eProject = (runtime) =>
	project({
		displayName: runtime.projectName('e2e'),
		testMatch: ['<rootDir>/test/**/*.test.js'],
		testPathIgnorePatterns: ['/node_modules/', QUEUE_TESTS, ...MONTH_END_TESTS],
		setupFiles: [`<rootDir>/test/support/n8n-${runtime.label}.js`],
	});

module.exports = {
	// Three test files at a time, also on 2 cores: the suites spend most of their time waiting for n8n to
	// start and poll, not computing (real-n8n/README.md, "In CI").
	maxWorkers: 3,
	// The longest suites first, also on a fresh clone.
	testSequencer: '<rootDir>/test/support/longest-first-sequencer.js',
	// n8n's child processes are stopped by each suite; a stray keep-alive socket must not hold jest open.
	forceExit: true,
	projects: [
		...RUNTIMES.map(e2eProject),
		project({
			displayName: n8nRuntime('newest').projectName('queue'),
			testMatch: [`${QUEUE_TESTS}**/*.test.js`],
			testPathIgnorePatterns: ['/node_modules/', ...MONTH_END_TESTS],
			setupFiles: ['<rootDir>/test/support/n8n-newest.js'],
		}),
	],
};
