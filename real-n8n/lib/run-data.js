'use strict';
// Reading what n8n recorded for an execution: node outputs, the workflow error, binary files.
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

/** Items of a node's first main output in its first run; [] when it did not run. */
function nodeItems(run, nodeName) {
	const taskData = run.data.resultData.runData[nodeName];
	return taskData?.[0]?.data?.main?.[0] ?? [];
}

/** The error n8n recorded for the execution (undefined on success). */
function executionError(run) {
	return run.data.resultData.error;
}

/**
 * Bytes of a binary property. n8n 2.x keeps binary data on disk by default ("filesystem-v2:<path>"
 * under <N8N_USER_FOLDER>/.n8n/storage); inline base64 is the older default mode.
 */
function binaryBytes(userFolder, binary) {
	const prefix = 'filesystem-v2:';
	if (typeof binary.id === 'string' && binary.id.startsWith(prefix)) {
		return fs.readFileSync(path.join(userFolder, '.n8n', 'storage', binary.id.slice(prefix.length)));
	}
	return Buffer.from(binary.data, 'base64');
}

const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

module.exports = { nodeItems, executionError, binaryBytes, sha256 };
