'use strict';
// Optional persistence (startSandbox({ stateFile })): what a user of a long-lived sandbox sets up and
// expects back after a restart, i.e. the tokens issued (OAuth and API keys) and the registered webhook
// endpoints with their secrets. Everything else (payroll statuses, faults, logs, messages) stays in memory.
// The file holds live secrets: it is written 0600, whole (temporary file + rename) so that a crash
// mid-write never leaves half a file.

const fs = require('node:fs');
const path = require('node:path');
const { writeSecretFile } = require('./secret-files');

const FORMAT_VERSION = 1;
const EMPTY_STATE = Object.freeze({ tokens: Object.freeze([]), webhookEndpoints: Object.freeze([]) });

function createStateFile(file) {
  /** The saved state, or an empty one when the file does not exist; a damaged file stops the start. */
  function load() {
    let text;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if (error.code === 'ENOENT') return EMPTY_STATE;
      throw error;
    }
    let state;
    try {
      state = JSON.parse(text);
    } catch (error) {
      throw new Error(`State file ${file} is not valid JSON (${error.message}); delete it to start over`);
    }
    if (!state || state.version !== FORMAT_VERSION || !Array.isArray(state.tokens) || !Array.isArray(state.webhookEndpoints)) {
      throw new Error(`State file ${file} is not a sandbox state file of version ${FORMAT_VERSION}; delete it to start over`);
    }
    return { tokens: state.tokens, webhookEndpoints: state.webhookEndpoints };
  }

  function save({ tokens, webhookEndpoints }) {
    // A folder it creates is its owner's only; an existing one (the caller's) keeps its mode.
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeSecretFile(file, `${JSON.stringify({ version: FORMAT_VERSION, tokens, webhookEndpoints }, null, 2)}\n`);
  }

  return { file, load, save };
}

module.exports = { createStateFile };
