export interface PackageManifest {
	name: string;
	version: string;
	homepage: string;
	repository: { type: string; url: string };
	scripts: Record<string, string>;
	publishConfig?: Record<string, unknown>;
	devDependencies: Record<string, string>;
	n8n: { nodes: string[]; credentials: string[] };
}

export interface CodexFile {
	/** The node's base name: PartnerPayroll for nodes/PartnerPayroll/PartnerPayroll.node.json. */
	name: string;
	/** Relative to the project. */
	file: string;
	codex: {
		node: string;
		nodeVersion: string;
		codexVersion: string;
		categories?: unknown;
		alias?: unknown;
		resources: Record<string, Array<{ url: string }>>;
	};
}

export interface ScanReport {
	scanner: string;
	package: string;
	/** Paths inside the tarball, without the leading package/. */
	tarballFiles: string[];
	legs: Array<{
		leg: 'tarball' | 'source';
		filesScanned: number;
		scannerPassed: boolean;
		findings: number;
	}>;
	findings: Array<{
		leg: string;
		file: string;
		line: number;
		severity: string;
		rule: string;
		message: string;
	}>;
	passed: boolean;
}

export function readProjectFile(file: string): string;
export function projectManifest(): PackageManifest;
export function projectFiles(folder: string): string[];
export function projectFileExists(file: string): boolean;
export function projectFilesUnder(folder: string, extension: string): string[];
export function resolveProjectLink(from: string, link: string): string;
export function codexFiles(): CodexFile[];
export function headingAnchors(markdown: string): string[];
export function readmeAnchors(): string[];
export function scanPackedPackage(): Promise<ScanReport>;
export function releaseProblems(env: Record<string, string | undefined>, root: string): string[];
export function fakeReleaseRoot(options: { version: string; changelog: string; built: boolean }): {
	dir: string;
	remove(): void;
};
export function npmPublishLocally(
	args: string[],
): Promise<{ code: number; output: string; requests: Array<{ method: string; url: string }> }>;
