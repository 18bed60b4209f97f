#!/usr/bin/env node
'use strict';
// The publish guard, package.json's `prepublishOnly`: `npm publish` goes through only from the publish
// workflow (.github/workflows/publish.yml), for the version tag of package.json's version, with npm
// provenance, a build and a changelog entry for that version.
//
// Why it runs at all: .npmrc sets `ignore-scripts=true` so that `npm install` runs no dependency's install
// scripts, and npm then skips `prepublishOnly` too, silently. The publish workflow therefore publishes with
// `npm publish --ignore-scripts=false`, which runs this guard. A plain `npm publish` on a machine (scripts
// ignored) is stopped by package.json's `publishConfig.provenance`: npm refuses to publish with provenance
// outside a CI provider it supports, before sending anything. With `--ignore-scripts=false` there, this
// guard stops it. `n8n-node prerelease` (the n8n template's guard) only checks that RELEASE_MODE is set.
const fs = require('node:fs');
const path = require('node:path');

const PUBLISH_WORKFLOW = '.github/workflows/publish.yml';

/** Every reason not to publish from `root` in `env`; empty when the publish may go on. */
function releaseProblems(env, root) {
	const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const version = manifest.version;
	const tag = `v${version}`;
	const problems = [];

	if (env.npm_command !== 'publish' || env.npm_lifecycle_event !== 'prepublishOnly') {
		problems.push('the guard runs as the prepublishOnly script of `npm publish`, not on its own');
	}
	if (env.GITHUB_ACTIONS !== 'true') {
		problems.push(
			`not in GitHub Actions: publish by pushing the tag ${tag} (workflow ${PUBLISH_WORKFLOW})`,
		);
	} else if (!(env.GITHUB_WORKFLOW_REF || '').includes(`/${PUBLISH_WORKFLOW}@`)) {
		problems.push(`not the publish workflow (${env.GITHUB_WORKFLOW_REF || 'unknown workflow'})`);
	}
	if (env.GITHUB_ACTIONS === 'true' && env.GITHUB_REF !== `refs/tags/${tag}`) {
		problems.push(
			`the workflow runs for ${env.GITHUB_REF || 'no ref'}, not for the tag ${tag} of package.json's version`,
		);
	}
	if (env.npm_config_provenance !== 'true') {
		problems.push(
			'npm publish without --provenance (n8n requires npm provenance for community packages)',
		);
	}
	const built = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
	const missing = built.filter((file) => !fs.existsSync(path.join(root, file)));
	if (missing.length > 0) {
		problems.push(`not built (${missing.join(', ')} missing): run npm run build`);
	}
	const changelogFile = path.join(root, 'CHANGELOG.md');
	const changelog = fs.existsSync(changelogFile) ? fs.readFileSync(changelogFile, 'utf8') : '';
	const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	if (!new RegExp(`^## \\[${escaped}\\]`, 'm').test(changelog)) {
		problems.push(
			`CHANGELOG.md has no section "## [${version}]": move the Unreleased entries under it`,
		);
	}
	return problems;
}

module.exports = { releaseProblems, PUBLISH_WORKFLOW };

if (require.main === module) {
	const root = path.resolve(__dirname, '..');
	const problems = releaseProblems(process.env, root);
	if (problems.length > 0) {
		console.error('npm publish refused by the release guard (scripts/release-guard.js):');
		for (const problem of problems) console.error(`  - ${problem}`);
		console.error('How to release: CONTRIBUTING.md, section "Releasing".');
		process.exit(1);
	}
	console.log(
		'Release guard: publishing from the publish workflow, with provenance, for the matching tag.',
	);
}
