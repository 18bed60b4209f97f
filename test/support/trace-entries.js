'use strict';
// Which product files a run enters, and in what order: test/package/requestPath.test.ts follows one
// request down with it. A file is entered when a function of another file calls one of its exports, or a
// method of an exported object or class; calls inside a file are not moves.
const fs = require('node:fs');
const path = require('node:path');
const { AsyncLocalStorage } = require('node:async_hooks');

const { typeScriptSources } = require('./sources');

const root = path.resolve(__dirname, '..', '..');

/**
 * Wraps the exports of every file below `folders` (loaded through the test's own module registry, so the
 * code under test calls the wrapped functions) and records each entry while `recording()` is true.
 * Returns the list it fills, of paths from the project's root.
 */
function traceFileEntries(folders, recording) {
	const current = new AsyncLocalStorage();
	const entries = [];
	const wrap = (file, fn) =>
		function (...args) {
			if (recording() && current.getStore() !== file) entries.push(file);
			return current.run(file, () => fn.apply(this, args));
		};
	const wrapMethods = (file, target) => {
		for (const name of Object.getOwnPropertyNames(target)) {
			const descriptor = Object.getOwnPropertyDescriptor(target, name);
			if (name === 'constructor' || !descriptor.writable || typeof descriptor.value !== 'function')
				continue;
			target[name] = wrap(file, descriptor.value);
		}
	};
	const wrapped = new Set();
	for (const { path: file } of typeScriptSources(folders)) {
		const exports = require(path.join(root, file));
		for (const name of Object.keys(exports)) {
			const descriptor = Object.getOwnPropertyDescriptor(exports, name);
			// Re-exports are getters onto the file that defines them, wrapped there.
			if (!descriptor.writable || wrapped.has(descriptor.value)) continue;
			const value = descriptor.value;
			wrapped.add(value);
			if (typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value))) {
				wrapMethods(file, value.prototype);
			} else if (typeof value === 'function') {
				exports[name] = wrap(file, value);
			} else if (value && typeof value === 'object' && !Array.isArray(value)) {
				// An operation's execute, a resource's operations; an exported instance (the pacer) has its
				// class's methods, wrapped with its class.
				wrapMethods(file, value);
				for (const inner of Object.values(value)) {
					if (inner && typeof inner === 'object' && !Array.isArray(inner) && !wrapped.has(inner)) {
						wrapped.add(inner);
						wrapMethods(file, inner);
					}
				}
			}
		}
	}
	return entries;
}

/** Writes `text` to test-artifacts/`name` (for `node scripts/request-stack.mjs --path`). */
function writeArtifact(name, text) {
	fs.mkdirSync(path.join(root, 'test-artifacts'), { recursive: true });
	fs.writeFileSync(path.join(root, 'test-artifacts', name), text);
}

module.exports = { traceFileEntries, writeArtifact };
