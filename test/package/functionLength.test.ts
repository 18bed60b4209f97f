// No function of the product runs past 100 lines: a longer one does several things, and its steps read
// better as named functions. Every function, method, accessor, arrow function and function expression
// in nodes/ and credentials/ counts, from its first line to its last (a leading doc comment does not).
import * as ts from 'typescript';

import { typeScriptSources } from '../support/sources';

const MAX_FUNCTION_LINES = 100;
const PRODUCT_FOLDERS = ['nodes', 'credentials'];

interface FunctionSpan {
	/** `file:line name`, as a reader looks it up. */
	where: string;
	lines: number;
}

/** The name a reader knows the function by: its own, or that of what holds it. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
	if (node.name) return node.name.getText();
	const parent = node.parent;
	if (
		(ts.isVariableDeclaration(parent) ||
			ts.isPropertyAssignment(parent) ||
			ts.isPropertyDeclaration(parent)) &&
		parent.name
	) {
		return parent.name.getText();
	}
	return ts.isArrowFunction(node) ? '(arrow function)' : '(function expression)';
}

function isFunctionLike(node: ts.Node): node is ts.FunctionLikeDeclaration {
	return (
		ts.isFunctionDeclaration(node) ||
		ts.isMethodDeclaration(node) ||
		ts.isConstructorDeclaration(node) ||
		ts.isGetAccessorDeclaration(node) ||
		ts.isSetAccessorDeclaration(node) ||
		ts.isArrowFunction(node) ||
		ts.isFunctionExpression(node)
	);
}

/** Every function of one source text with its length in lines; nested functions are listed too. */
function functionSpans(fileName: string, text: string): FunctionSpan[] {
	const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
	const spans: FunctionSpan[] = [];
	const visit = (node: ts.Node) => {
		if (isFunctionLike(node) && node.body) {
			const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
			const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
			spans.push({ where: `${fileName}:${first + 1} ${nameOf(node)}`, lines: last - first + 1 });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return spans;
}

const tooLong = (spans: FunctionSpan[]) =>
	spans
		.filter((span) => span.lines > MAX_FUNCTION_LINES)
		.map((span) => `${span.where} (${span.lines} lines)`);

const FORMS = ['function declaration', 'method', 'arrow function', 'function expression'] as const;
type Form = (typeof FORMS)[number];

/** A source text whose only function has this many lines, first to last, written in the given form. */
function functionOfLines(lines: number, form: Form) {
	const body = Array.from({ length: lines - 2 }, (_, index) => `\tconst line${index} = ${index};`);
	const opening = {
		'function declaration': 'function measured() {',
		method: 'class Holder {\nmeasured() {',
		'arrow function': 'const measured = () => {',
		'function expression': 'const measured = function () {',
	}[form];
	return [opening, ...body, form === 'method' ? '}\n}' : '}'].join('\n');
}

describe('function length', () => {
	it.each(FORMS)('%s: one of 101 lines is named, one of 100 lines passes', (form) => {
		expect(tooLong(functionSpans('long.ts', functionOfLines(101, form)))).toEqual([
			`long.ts:${form === 'method' ? 2 : 1} measured (101 lines)`,
		]);
		expect(tooLong(functionSpans('fits.ts', functionOfLines(100, form)))).toEqual([]);
	});

	it(`no function in ${PRODUCT_FOLDERS.join('/ or ')}/ runs past ${MAX_FUNCTION_LINES} lines`, () => {
		const spans = typeScriptSources(PRODUCT_FOLDERS).flatMap((file) =>
			functionSpans(file.path, file.text),
		);
		// The product has functions at all: an empty walk would pass for the wrong reason.
		expect(spans.length).toBeGreaterThan(100);
		expect(tooLong(spans)).toEqual([]);
	});
});
