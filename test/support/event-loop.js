'use strict';
// Node's event loop for TypeScript tests, which n8n's lint keeps from its timer globals.

/** Resolves after the I/O and promise callbacks already due have run (setImmediate). */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

module.exports = { nextTurn };
