// The package as `npm pack` makes it from the build, scanned by n8n's verification scanner
// (@n8n/scan-community-package, through scripts/scan-package.mjs: its tarball and source lint legs, offline).
// `npm test` builds before Jest runs; alone, run `npm run build` first.
import { projectManifest, scanPackedPackage, type ScanReport } from '../support/release';

const manifest = projectManifest();
let report: ScanReport;

beforeAll(async () => {
	report = await scanPackedPackage();
}, 180_000);

test("n8n's scanner finds nothing in the packed package nor in its sources", () => {
	expect(report.findings).toEqual([]);
	expect(report.legs.map(({ leg, scannerPassed }) => ({ leg, scannerPassed }))).toEqual([
		{ leg: 'tarball', scannerPassed: true },
		{ leg: 'source', scannerPassed: true },
	]);
	for (const leg of report.legs) expect(leg.filesScanned).toBeGreaterThan(10);
	expect(report.passed).toBe(true);
	expect(report.scanner).toBe(manifest.devDependencies['@n8n/scan-community-package']);
});

// No type declarations or source maps: n8n loads the JavaScript, and the maps point at sources not shipped.
test('the tarball holds what a user needs: the built nodes, credentials and icons, README, LICENSE, CHANGELOG', () => {
	const allowed = [
		/^(package\.json|README\.md|LICENSE|CHANGELOG\.md)$/,
		/^dist\/(credentials|nodes|icons)\/[^/].*\.(js|json|svg|png)$/,
	];
	expect(
		report.tarballFiles.filter((file) => !allowed.some((pattern) => pattern.test(file))),
	).toEqual([]);
	for (const file of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']) {
		expect(report.tarballFiles).toContain(file);
	}
	for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) {
		expect(report.tarballFiles).toContain(file);
		if (file.endsWith('.node.js'))
			expect(report.tarballFiles).toContain(file.replace(/\.js$/, '.json'));
	}
	expect(report.tarballFiles.filter((file) => file.startsWith('dist/icons/'))).not.toEqual([]);
	expect(
		report.tarballFiles.filter((file) => /(^|\/)(test|sandbox|real-n8n|scripts)\//.test(file)),
	).toEqual([]);
});
