// The codex files (`<Node>.node.json`) n8n reads next to each node: the categories of the nodes panel, the
// search aliases and the documentation links. n8n takes any string as a category without a word; an unknown
// one only misfiles the node, and n8n's verification rejects it.
import { codexFiles, projectManifest, readmeAnchors } from '../support/release';

const manifest = projectManifest();

/**
 * n8n's node categories, as documented for node codex files: "Node categories" in
 * https://docs.n8n.io/integrations/creating-nodes/build/reference/node-codex-files/ ("You must match the
 * syntax"). n8n's own lint plugin mirrors them (`KNOWN_CODEX_CATEGORIES` in n8n-io/n8n,
 * packages/@n8n/eslint-plugin-community-nodes/src/utils/codex-taxonomy.ts, kept in sync with the editor's
 * nodeCreator constants); its list adds only categories of n8n's built-in nodes ('AI', reserved for the AI
 * Node SDK, 'Core Nodes', 'HITL', 'ECM', 'Developer Tools'), which a community node does not use.
 */
const N8N_CATEGORIES = [
	'Analytics',
	'Communication',
	'Data & Storage',
	'Development',
	'Finance & Accounting',
	'Marketing & Content',
	'Miscellaneous',
	'Productivity',
	'Sales',
	'Utility',
];

/** What payroll users type into the nodes panel search, per node: the documents and data each one handles. */
const REQUIRED_ALIASES: Record<string, string[]> = {
	// Every operation: UK documents (P60, P45, P11D, auto-enrolment pension letters), French accounting (FEC),
	// health insurance (mutuelle) and provident fund (prévoyance) contracts, the payment file.
	PartnerPayroll: [
		'payroll',
		'payslip',
		'P60',
		'P45',
		'P11D',
		'FEC',
		'paie',
		'mutuelle',
		'prévoyance',
		'pension',
		'auto-enrolment',
	],
	// A closed payroll month (after which the accounting export is ready) and new UK documents; the trigger
	// reads no insurance contract.
	PartnerPayrollTrigger: [
		'payroll',
		'payslip',
		'P60',
		'P45',
		'P11D',
		'FEC',
		'paie',
		'pension',
		'auto-enrolment',
	],
	// The service's own events: a payroll run, a company connecting or disconnecting the partner app.
	PartnerPayrollWebhookTrigger: ['payroll', 'paie', 'nómina', 'webhook'],
	// Connecting a client company: what a partner looks for when onboarding clients.
	PartnerPayrollConnectTrigger: ['payroll', 'connect', 'onboarding', 'oauth', 'paie', 'nómina'],
};

const codices = codexFiles();

test('every node package.json declares has its codex file beside it, and there is no other', () => {
	const declared = manifest.n8n.nodes.map((file) => {
		const match = /^dist\/nodes\/(\w+)\/(\w+)\.node\.js$/.exec(file);
		expect(match?.[1]).toBe(match?.[2]);
		return `nodes/${match?.[1]}/${match?.[2]}.node.json`;
	});
	expect(codices.map(({ file }) => file).sort()).toEqual(declared.sort());
});

describe.each(codices)('$file', ({ name, codex }) => {
	it("names the node by the package's name and the node's type name", () => {
		expect(codex.node).toBe(`${manifest.name}.${name.charAt(0).toLowerCase()}${name.slice(1)}`);
		expect(codex.codexVersion).toBe('1.0');
	});

	it("uses only n8n's categories, Finance & Accounting first", () => {
		expect(Array.isArray(codex.categories)).toBe(true);
		const categories = codex.categories as string[];
		expect(categories.filter((category) => !N8N_CATEGORIES.includes(category))).toEqual([]);
		expect(categories[0]).toBe('Finance & Accounting');
		expect(new Set(categories).size).toBe(categories.length);
	});

	it('has the search aliases payroll users type', () => {
		expect(Array.isArray(codex.alias)).toBe(true);
		const aliases = codex.alias as string[];
		expect(
			aliases.filter(
				(alias) => typeof alias !== 'string' || alias.trim() !== alias || alias === '',
			),
		).toEqual([]);
		expect(new Set(aliases.map((alias) => alias.toLowerCase())).size).toBe(aliases.length);
		expect(REQUIRED_ALIASES[name]).toBeDefined();
		expect(REQUIRED_ALIASES[name].filter((word) => !aliases.includes(word))).toEqual([]);
	});

	it("links to sections of the README in the package's repository", () => {
		const repository = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
		expect(manifest.homepage).toBe(`${repository}#readme`);
		const anchors = readmeAnchors();
		const links = [
			...codex.resources.primaryDocumentation,
			...codex.resources.credentialDocumentation,
		].map((resource) => resource.url);
		expect(links.length).toBeGreaterThanOrEqual(2);
		for (const url of links) {
			const [base, anchor] = url.split('#');
			expect(base).toBe(repository);
			expect(anchors).toContain(anchor);
		}
	});
});
