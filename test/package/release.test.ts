// Publishing: only the publish workflow publishes, with npm provenance, through a guard that really runs although
// .npmrc ignores scripts. `npm publish` runs for real here, against a local stand-in for the registry that
// records what reaches it, in an environment without any CI variable.
import {
	fakeReleaseRoot,
	npmPublishLocally,
	projectFiles,
	projectManifest,
	readProjectFile,
	releaseProblems,
} from '../support/release';

const manifest = projectManifest();

describe('the release guard (prepublishOnly)', () => {
	const version = '9.8.7';
	const changelog = `# Changelog\n\n## [Unreleased]\n\n## [${version}] - 2026-12-01\n\n### Added\n\n- Something.\n`;
	/** What the publish workflow's `npm publish --ignore-scripts=false --provenance` gives the guard. */
	const workflowEnv = {
		npm_command: 'publish',
		npm_lifecycle_event: 'prepublishOnly',
		npm_config_provenance: 'true',
		GITHUB_ACTIONS: 'true',
		GITHUB_WORKFLOW_REF: `partner-payroll/n8n-nodes-partner-payroll/.github/workflows/publish.yml@refs/tags/v${version}`,
		GITHUB_REF: `refs/tags/v${version}`,
	};
	let released: ReturnType<typeof fakeReleaseRoot>;

	beforeAll(() => (released = fakeReleaseRoot({ version, changelog, built: true })));
	afterAll(() => released.remove());

	it('lets the publish workflow publish the tag of the version, built, with provenance and a changelog entry', () => {
		expect(releaseProblems(workflowEnv, released.dir)).toEqual([]);
	});

	it.each([
		['outside GitHub Actions', { GITHUB_ACTIONS: undefined }, /not in GitHub Actions/],
		[
			'from another workflow',
			{ GITHUB_WORKFLOW_REF: 'o/r/.github/workflows/ci.yml@refs/heads/main' },
			/not the publish workflow/,
		],
		[
			'for a tag of another version',
			{ GITHUB_REF: 'refs/tags/v9.8.6' },
			/not for the tag v9\.8\.7/,
		],
		['for a branch', { GITHUB_REF: 'refs/heads/main' }, /not for the tag v9\.8\.7/],
		['without provenance', { npm_config_provenance: undefined }, /without --provenance/],
		['when run by hand', { npm_command: 'run-script' }, /prepublishOnly script of `npm publish`/],
	])('refuses to publish %s', (_case, change, reason) => {
		const problems = releaseProblems({ ...workflowEnv, ...change }, released.dir);
		expect(problems).toHaveLength(1);
		expect(problems[0]).toMatch(reason);
	});

	it('refuses a version without its changelog section, or without a build', () => {
		const unreleased = fakeReleaseRoot({
			version,
			changelog: '# Changelog\n\n## [Unreleased]\n',
			built: false,
		});
		try {
			expect(releaseProblems(workflowEnv, unreleased.dir)).toEqual([
				expect.stringMatching(
					/^not built \(dist\/nodes\/PartnerPayroll\/PartnerPayroll\.node\.js, /,
				),
				'CHANGELOG.md has no section "## [9.8.7]": move the Unreleased entries under it',
			]);
		} finally {
			unreleased.remove();
		}
	});
});

describe('npm publish outside the publish workflow', () => {
	const puts = (requests: Array<{ method: string }>) =>
		requests.filter((request) => request.method === 'PUT');

	it('`npm publish` as typed (scripts ignored by .npmrc) is stopped by publishConfig.provenance, nothing sent', async () => {
		const { code, output, requests } = await npmPublishLocally([]);
		expect(code).not.toBe(0);
		expect(output).toContain('Automatic provenance generation not supported');
		expect(puts(requests)).toEqual([]);
	}, 120_000);

	it("the publish workflow's command runs the guard, which stops it here, nothing sent", async () => {
		const { code, output, requests } = await npmPublishLocally([
			'--ignore-scripts=false',
			'--provenance',
			'--access',
			'public',
		]);
		expect(code).not.toBe(0);
		expect(output).toContain('npm publish refused by the release guard');
		expect(output).toContain('not in GitHub Actions');
		expect(puts(requests)).toEqual([]);
	}, 120_000);
});

describe('the repository', () => {
	it('keeps installs script-free (.npmrc), which is why the workflow turns scripts on to publish', () => {
		expect(readProjectFile('.npmrc')).toMatch(/^ignore-scripts=true$/m);
		expect(manifest.scripts.prepublishOnly).toBe('node scripts/release-guard.js');
		expect(manifest.publishConfig).toEqual({ access: 'public', provenance: true });
	});

	it('publishes from a version tag with provenance, the token only from the repository secrets', () => {
		const workflow = readProjectFile('.github/workflows/publish.yml');
		expect(workflow).toMatch(/tags:\s*\n\s*- 'v\*'/);
		expect(workflow).toMatch(/id-token: write/);
		expect(workflow).toMatch(/contents: read/);
		expect(workflow).toMatch(/registry-url: 'https:\/\/registry\.npmjs\.org'/);
		// npm test in the CI workflow (on the Debian machine it needs), then the publish job in this order.
		expect(workflow).toContain('uses: ./.github/workflows/ci.yml');
		expect(workflow).toMatch(/needs: test/);
		const publishJob = workflow.slice(workflow.indexOf('\n  publish:'));
		let at = 0;
		for (const step of ['npm install', 'npm run build', 'npm run lint', 'npm publish']) {
			const next = publishJob.indexOf(`run: ${step}`, at);
			expect(next).toBeGreaterThan(at);
			at = next;
		}
		expect(publishJob).toContain(
			'run: npm publish --ignore-scripts=false --provenance --access public',
		);
		expect(publishJob).toContain('NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}');
	});

	it('runs the README test command in CI, then the lab', () => {
		const workflow = readProjectFile('.github/workflows/ci.yml');
		expect(workflow).toMatch(/on:\s*\n\s*push:[\s\S]*pull_request:[\s\S]*workflow_call:/);
		expect(workflow).toContain('run: bash .ci/run');
		const ciRun = readProjectFile('.ci/run');
		const packageTests = ciRun.search(/^npm test\b/m);
		const labTests = ciRun.search(/^npm --prefix real-n8n run test:retry\b/m);
		expect(packageTests).toBeGreaterThan(-1);
		expect(labTests).toBeGreaterThan(packageTests);
		expect(readProjectFile('README.md')).toMatch(/^npm test\b/m);
	});

	it('holds no npm token in any workflow', () => {
		for (const file of projectFiles('.github/workflows')) {
			const text = readProjectFile(`.github/workflows/${file}`);
			expect(text).not.toMatch(/npm_[A-Za-z0-9]{36}/);
			expect(text).not.toMatch(/_authToken=/);
		}
	});
});
