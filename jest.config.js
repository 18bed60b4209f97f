// Three suites: the sandbox on its own, the package run in-process by n8n-core, and the
// end-to-end suite inside a real n8n. `npm run test:fast` leaves the last one out.
const tsJest = ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }];

module.exports = {
	// n8n-core leaves process-wide handles behind (keep-alive agents, service timers) that the
	// teardown cannot all reach; once every suite has finished, nothing is left to wait for.
	forceExit: true,
	// dist/ holds a copy of package.json; jest must not see two packages of one name.
	modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/.n8n-runtime/', '<rootDir>/.n8n-demo/', '<rootDir>/e2e/n8n/'],
	projects: [
		{
			displayName: 'sandbox',
			testEnvironment: 'node',
			testMatch: ['<rootDir>/sandbox/test/**/*.test.js'],
		},
		{
			displayName: 'package',
			testEnvironment: 'node',
			testMatch: ['<rootDir>/test/**/*.test.ts'],
			testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/'],
			transform: { '^.+\\.ts$': tsJest },
			setupFiles: ['<rootDir>/test/support/env.js'],
			setupFilesAfterEnv: ['<rootDir>/test/support/n8n-teardown.js'],
		},
		{
			displayName: 'e2e',
			testEnvironment: 'node',
			testMatch: ['<rootDir>/test/e2e/**/*.test.js'],
		},
	],
};
