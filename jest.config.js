// The sandbox on its own, the package run in-process by n8n-core, the end-to-end suites inside a real
// n8n once per version of the compatibility matrix (real-n8n/lib/runtimes.js), and queue mode (main, two
// workers, Redis, Postgres) in the newest n8n. `npm run test:fast` runs the first two only.
const { RUNTIMES, n8nRuntime } = require('./real-n8n/lib/runtimes');

const tsJest = ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }];
const QUEUE_TESTS = '<rootDir>/test/e2e/queue/';
// A project option (not inherited from the top level): dist/ holds a copy of package.json and every n8n
// install folder a copy of its recipe; jest must not see two packages of one name.
const modulePathIgnorePatterns = [
	'<rootDir>/dist/',
	'<rootDir>/.n8n-runtime',
	'<rootDir>/.n8n-demo',
	'<rootDir>/.n8n-queue/',
	'<rootDir>/real-n8n/n8n',
];
const project = (options) => ({ testEnvironment: 'node', modulePathIgnorePatterns, ...options });

/** The end-to-end suites in one n8n version: E2E_N8N tells real-n8n/lib which one. */
const e2eProject = (runtime) =>
	project({
		displayName: runtime.projectName('e2e'),
		testMatch: ['<rootDir>/test/e2e/**/*.test.js'],
		testPathIgnorePatterns: ['/node_modules/', QUEUE_TESTS],
		setupFiles: [`<rootDir>/test/e2e/support/n8n-${runtime.label}.js`],
	});

module.exports = {
	// Two test files at a time, also on 2 cores: the end-to-end suites spend most of their time waiting
	// for n8n's poll schedule (a minute in the newest n8n), not computing.
	maxWorkers: 2,
	// n8n-core leaves process-wide handles behind (keep-alive agents, service timers) that the
	// teardown cannot all reach; once every suite has finished, nothing is left to wait for.
	forceExit: true,
	projects: [
		project({
			displayName: 'sandbox',
			testMatch: ['<rootDir>/sandbox/test/**/*.test.js'],
		}),
		project({
			displayName: 'package',
			testMatch: ['<rootDir>/test/**/*.test.ts'],
			testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/'],
			transform: { '^.+\\.ts$': tsJest },
			setupFiles: ['<rootDir>/test/support/env.js'],
			setupFilesAfterEnv: ['<rootDir>/test/support/n8n-teardown.js'],
		}),
		...RUNTIMES.map(e2eProject),
		project({
			displayName: n8nRuntime('newest').projectName('queue'),
			testMatch: [`${QUEUE_TESTS}**/*.test.js`],
			setupFiles: ['<rootDir>/test/e2e/support/n8n-newest.js'],
		}),
	],
};
