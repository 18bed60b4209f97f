// `npm test`: the sandbox on its own, and the package run in-process by n8n-core against it over real
// HTTP. No n8n install, no browser, no root. The suites inside a real n8n live in the lab (real-n8n/,
// its own jest.config.js; `npm run test:n8n`).
// isolatedModules in test/tsconfig.json: ts-jest transpiles each file on its own, without type-checking it in
// every worker; `npm run typecheck` checks the types once, before Jest.
const tsJest = ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }];
// A project option (not inherited from the top level): dist/ holds a copy of package.json, the lab holds
// n8n's version recipes and its own node_modules; jest must not see two packages of one name.
const modulePathIgnorePatterns = ['<rootDir>/dist/', '<rootDir>/real-n8n/', '<rootDir>/.n8n-'];
const project = (options) => ({ testEnvironment: 'node', modulePathIgnorePatterns, ...options });

module.exports = {
	// Two test files at a time, also on 2 cores: most suites wait on HTTP to the sandbox, not on the CPU.
	maxWorkers: 2,
	// The longest files first, also on a fresh clone.
	testSequencer: '<rootDir>/test/support/longest-first-sequencer.js',
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
			transform: { '^.+\\.ts$': tsJest },
			setupFiles: ['<rootDir>/test/support/env.js'],
			setupFilesAfterEnv: [
				'<rootDir>/test/support/n8n-teardown.js',
				'<rootDir>/test/support/new-run-claims-per-test.ts',
			],
		}),
	],
};
