// Every link in the package's Markdown pages leads somewhere: a relative link to a file that exists, an
// #anchor to a heading of its page (GitHub's rule), an absolute link well formed. No network: an address
// on the web is checked for its form only.
import {
	headingAnchors,
	projectFileExists,
	projectFiles,
	readProjectFile,
	resolveProjectLink,
} from '../support/release';

/** The pages a reader follows links through: the README, the contributor page, docs/ and the lab's README. */
function pages(): string[] {
	const docs = projectFiles('docs')
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`);
	return ['README.md', 'CONTRIBUTING.md', 'real-n8n/README.md', ...docs];
}

/** The text without fenced code blocks and inline code, where brackets are not links. */
function prose(markdown: string): string {
	return markdown.replace(/^\s*(```|~~~)[\s\S]*?^\s*\1.*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The targets of the page's inline links and images: `[text](target)`. */
function linkTargets(markdown: string): string[] {
	return [...prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
		(match) => match[1],
	);
}

/** What is wrong with one link of `page`, or undefined when it leads somewhere. */
function deadLink(page: string, target: string): string | undefined {
	if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
		if (!/^https?:\/\//i.test(target)) return 'only http(s) and relative links are allowed';
		try {
			const url = new URL(target);
			return url.hostname.includes('.') ? undefined : 'the host has no domain';
		} catch {
			return 'not a URL';
		}
	}
	const [file, anchor] = target.split('#');
	const linked = file ? resolveProjectLink(page, decodeURIComponent(file)) : page;
	if (linked.startsWith('..')) return 'outside the repository';
	if (!projectFileExists(linked)) return `${linked} does not exist`;
	if (anchor === undefined) return undefined;
	if (!linked.endsWith('.md')) return `an anchor into ${linked}, which is not a Markdown page`;
	const anchors = headingAnchors(readProjectFile(linked));
	return anchors.includes(anchor) ? undefined : `${linked} has no heading for #${anchor}`;
}

describe('links in the Markdown pages', () => {
	it.each(pages())('%s: every link leads somewhere', (page) => {
		const targets = linkTargets(readProjectFile(page));
		const dead = targets
			.map((target) => ({ target, problem: deadLink(page, target) }))
			.filter((link) => link.problem !== undefined);
		expect(dead).toEqual([]);
	});
});

describe('the docs index (docs/README.md)', () => {
	it('links every page of docs/', () => {
		const index = linkTargets(readProjectFile('docs/README.md'));
		const unlisted = pages()
			.filter((page) => page.startsWith('docs/') && page !== 'docs/README.md')
			.filter((page) => !index.includes(page.replace(/^docs\//, '')));
		expect(unlisted).toEqual([]);
	});
});

describe('the link reader', () => {
	it('finds links and images, and leaves code alone', () => {
		const markdown = [
			'See [the docs](docs/a.md#b) and ![icon](icons/x.svg "title").',
			'`[not](a-link.md)`',
			'```sh',
			'[not](either.md)',
			'```',
		].join('\n');
		expect(linkTargets(markdown)).toEqual(['docs/a.md#b', 'icons/x.svg']);
	});
});
