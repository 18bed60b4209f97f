import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { SandboxSession, runPartnerPayroll } from '../support/fixtures';

// The way one request goes down, as a reader follows it: for one item of Payroll -> Download Payment
// File with the Partner API credential, the product files in the order they are entered, from the
// node's execute() until the credential has signed the request. A file is entered when a function of
// another file calls one of its exports (or a method of an exported object or class); calls inside a
// file are not moves. None may be entered twice. `node scripts/request-stack.mjs --path` prints it.

const ROOT = join(__dirname, '..', '..');
const session = new SandboxSession();

/** Every product source file: nodes/ and credentials/. */
function productFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return productFiles(path);
		return name.endsWith('.ts') ? [path] : [];
	});
}

type AnyFunction = (...args: unknown[]) => unknown;

/** Records the files entered while `recording()` is true, through wrapped exports of every product file. */
function traceEntries(recording: () => boolean) {
	const current = new AsyncLocalStorage<string>();
	const entries: string[] = [];
	const wrap = (file: string, fn: AnyFunction): AnyFunction =>
		function (this: unknown, ...args: unknown[]) {
			if (recording() && current.getStore() !== file) entries.push(file);
			return current.run(file, () => fn.apply(this, args));
		};
	const wrapMethods = (file: string, target: Record<string, unknown>) => {
		for (const name of Object.getOwnPropertyNames(target)) {
			const descriptor = Object.getOwnPropertyDescriptor(target, name);
			if (name === 'constructor' || !descriptor?.writable || typeof descriptor.value !== 'function') continue;
			target[name] = wrap(file, descriptor.value as AnyFunction);
		}
	};
	const wrapped = new Set<unknown>();
	for (const path of [...productFiles(join(ROOT, 'nodes')), ...productFiles(join(ROOT, 'credentials'))]) {
		const file = relative(ROOT, path);
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const exports = require(path) as Record<string, unknown>;
		for (const name of Object.keys(exports)) {
			const descriptor = Object.getOwnPropertyDescriptor(exports, name);
			// Re-exports are getters onto the file that defines them, wrapped there.
			if (!descriptor?.writable) continue;
			const value = descriptor.value as unknown;
			if (wrapped.has(value)) continue;
			wrapped.add(value);
			if (typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value))) {
				wrapMethods(file, (value as { prototype: Record<string, unknown> }).prototype);
			} else if (typeof value === 'function') {
				exports[name] = wrap(file, value as AnyFunction);
			} else if (value && typeof value === 'object' && !Array.isArray(value)) {
				// Exported objects: an operation's execute, a resource's operations. (An exported instance,
				// such as the pacer, has its class's methods, wrapped with its class.)
				wrapMethods(file, value as Record<string, unknown>);
				for (const inner of Object.values(value as Record<string, unknown>)) {
					if (inner && typeof inner === 'object' && !Array.isArray(inner) && !wrapped.has(inner)) {
						wrapped.add(inner);
						wrapMethods(file, inner as Record<string, unknown>);
					}
				}
			}
		}
	}
	return entries;
}

beforeAll(async () => await session.start());
afterAll(async () => await session.stop());

it('Download Payment File with the Partner API credential: no product file entered twice on the way down', async () => {
	const credentials = await session.partner(['FR1001', 'ES2001']);
	let signed = false;
	let started = false;
	const entries = traceEntries(() => started && !signed);
	// The credential's authenticate is the last step down: what it calls is recorded, then nothing.
	const credentialFile = join(ROOT, 'credentials', 'PartnerPayrollPartnerApi.credentials.ts');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { PartnerPayrollPartnerApi } = require(credentialFile) as {
		PartnerPayrollPartnerApi: { prototype: { authenticate: AnyFunction } };
	};
	const authenticate = PartnerPayrollPartnerApi.prototype.authenticate;
	PartnerPayrollPartnerApi.prototype.authenticate = async function (this: unknown, ...args: unknown[]) {
		try {
			return await authenticate.apply(this, args);
		} finally {
			signed = true;
		}
	};
	started = true;
	const [item] = await runPartnerPayroll(
		{ resource: 'payroll', operation: 'downloadPaymentFile', companyId: 'FR1001', month: '202610' },
		credentials,
	);
	PartnerPayrollPartnerApi.prototype.authenticate = authenticate;
	expect(item.binary?.data).toBeDefined();

	const report = entries.map((file, index) => `${String(index + 1).padStart(2)}. ${file}`).join('\n');
	mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
	writeFileSync(join(ROOT, 'test-artifacts', 'request-path.txt'), `${report}\n`);
	expect(entries[0]).toBe('nodes/PartnerPayroll/PartnerPayroll.node.ts');
	expect(entries.at(-2)).toBe('credentials/PartnerPayrollPartnerApi.credentials.ts');
	const twice = entries.filter((file, index) => entries.indexOf(file) !== index);
	expect({ twice, path: entries }).toEqual({ twice: [], path: entries });
});
