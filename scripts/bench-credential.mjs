#!/usr/bin/env node
// The Partner API credential's own work per request with 10, 300 and 10,000 companies, before and after
// the list was read once per credential value, in one run: both versions are compiled from their sources
// (`--before <commit>`, default the commit before the change) and timed on the same rows.
//
//   node scripts/bench-credential.mjs [--before <commit>] [--markdown]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const before = args.includes('--before') ? args[args.indexOf('--before') + 1] : '7236b01';
const WORK = join(ROOT, '.bench-credential');
const require = createRequire(import.meta.url);

/** The credential classes compiled from `files`, the credentials/ folder of one version. */
function compiled(name, files) {
	const src = join(WORK, name, 'src');
	const out = join(WORK, name, 'out');
	mkdirSync(src, { recursive: true });
	for (const [file, text] of Object.entries(files)) writeFileSync(join(src, file), text);
	try {
		execFileSync(
			join(ROOT, 'node_modules', '.bin', 'tsc'),
			[
				'--outDir',
				out,
				'--module',
				'commonjs',
				'--target',
				'es2022',
				'--skipLibCheck',
				'--types',
				'node',
				...Object.keys(files).map((file) => join(src, file)),
			],
			{ stdio: 'pipe' },
		);
	} catch {
		// Type errors (n8n-workflow's types are not resolved from here) do not stop the emit.
	}
	return {
		PartnerPayrollPartnerApi: require(join(out, 'PartnerPayrollPartnerApi.credentials.js'))
			.PartnerPayrollPartnerApi,
		PartnerPayrollApi: require(join(out, 'PartnerPayrollApi.credentials.js')).PartnerPayrollApi,
	};
}

const atCommit = () => {
	const names = execFileSync('git', ['ls-tree', '--name-only', `${before}:credentials`], {
		cwd: ROOT,
		encoding: 'utf8',
	});
	return Object.fromEntries(
		names
			.split('\n')
			.filter((file) => file.endsWith('.ts'))
			.map((file) => [
				file,
				execFileSync('git', ['show', `${before}:credentials/${file}`], {
					cwd: ROOT,
					encoding: 'utf8',
				}),
			]),
	);
};
const inWorkTree = () =>
	Object.fromEntries(
		readdirSync(join(ROOT, 'credentials'))
			.filter((file) => file.endsWith('.ts'))
			.map((file) => [file, readFileSync(join(ROOT, 'credentials', file), 'utf8')]),
	);

function credentialsOf(count) {
	const company = Array.from({ length: count }, (_, index) => {
		const companyId = `C${String(index).padStart(5, '0')}`;
		return { companyId, label: `Client ${index}`, accessToken: `${companyId}:token-${index}` };
	});
	return {
		baseUrl: 'https://api.example.com/partner/v1',
		authServerUrl: 'https://auth.example.com',
		clientId: 'partner-app',
		companies: { company },
	};
}

/** Median time of one request's authenticate over `runs` requests, in µs, the first request apart. */
async function perRequest(Credential, credentials, runs, hintHeader) {
	const credential = new Credential();
	const last = credentials.companies.company.at(-1).companyId;
	const request = () => ({
		method: 'GET',
		baseURL: credentials.baseUrl,
		url: `/companies/${last}/payroll-status`,
		headers: { [hintHeader]: last },
	});
	let started = performance.now();
	await credential.authenticate(credentials, request());
	const first = (performance.now() - started) * 1000;
	const times = [];
	for (let run = 0; run < runs; run++) {
		started = performance.now();
		const signed = await credential.authenticate(credentials, request());
		times.push((performance.now() - started) * 1000);
		if (
			!String(signed.headers.Authorization).endsWith(
				`token-${credentials.companies.company.length - 1}`,
			)
		)
			throw new Error('authenticate sent another token');
	}
	times.sort((a, b) => a - b);
	return { first, median: times[Math.floor(times.length / 2)], runs };
}

rmSync(WORK, { recursive: true, force: true });
const now = compiled('now', inWorkTree());
const versions = [
	{
		name: `before (${before})`,
		Credential: compiled('before', atCommit()).PartnerPayrollPartnerApi,
	},
	{ name: 'now', Credential: now.PartnerPayrollPartnerApi },
];
const rows = [];
// The floor: the Access Token credential, one token and nothing to look up.
{
	const credential = new now.PartnerPayrollApi();
	const credentials = { baseUrl: 'https://api.example.com/partner/v1', accessToken: 'token' };
	const times = [];
	for (let run = 0; run < 2000; run++) {
		const started = performance.now();
		await credential.authenticate(credentials, {
			url: '/companies/FR1001/payroll-status',
			headers: {},
		});
		times.push((performance.now() - started) * 1000);
	}
	times.sort((a, b) => a - b);
	rows.push({
		count: 1,
		name: 'Access Token credential (one token, the floor)',
		median: times[1000],
		first: times[0],
		runs: 2000,
	});
}
for (const count of [10, 300, 10_000]) {
	const credentials = credentialsOf(count);
	for (const { name, Credential } of versions) {
		// The earlier version re-read the whole list with a quadratic duplicate scan on every request.
		const runs = name === 'now' ? 2000 : count >= 10_000 ? 3 : 200;
		const result = await perRequest(Credential, credentials, runs, 'x-partner-payroll-company');
		rows.push({ count, name, ...result });
	}
}
rmSync(WORK, { recursive: true, force: true });
const fmt = (us) => (us >= 1000 ? `${(us / 1000).toFixed(1)} ms` : `${us.toFixed(1)} µs`);
console.log(
	'| Companies in the credential | Version | Per request (median) | First request of a credential value | Requests timed |',
);
console.log('|---|---|---|---|---|');
for (const row of rows) {
	const first = row.count === 1 ? '—' : fmt(row.first);
	console.log(
		`| ${row.count.toLocaleString('en')} | ${row.name} | ${fmt(row.median)} | ${first} | ${row.runs} |`,
	);
}
