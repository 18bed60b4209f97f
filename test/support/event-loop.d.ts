/** Resolves after the I/O and promise callbacks already due have run (setImmediate). */
export function nextTurn(): Promise<void>;
