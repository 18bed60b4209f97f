'use strict';
// The demo's secret files (sandbox tokens, the webhook signing secret, the owner's n8n API key, the
// sandbox's state) and their folder: owner-only, also when they already exist with wider modes.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { keepSecretFolder, writeSecretFile } = require('../secret-files');

let parent;
beforeEach(() => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-files-'));
});
afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

const modeOf = (file) => fs.statSync(file).mode & 0o777;

test('a demo folder left at 0755 with a 0644 API key file: 0700 and 0600 after the start; other files keep their mode', () => {
  const folder = path.join(parent, '.n8n-demo');
  fs.mkdirSync(folder, { mode: 0o755 });
  fs.chmodSync(folder, 0o755);
  const apiKeyFile = path.join(folder, 'n8n-api-key.json');
  const tokensFile = path.join(folder, 'sandbox-tokens.json');
  const examples = path.join(folder, 'imported-examples.json');
  for (const file of [apiKeyFile, tokensFile, examples]) {
    fs.writeFileSync(file, '{}\n');
    fs.chmodSync(file, 0o644);
  }

  keepSecretFolder(folder, [apiKeyFile, tokensFile, path.join(folder, 'sandbox-state.json')]);

  expect(modeOf(folder)).toBe(0o700);
  expect(modeOf(apiKeyFile)).toBe(0o600);
  expect(modeOf(tokensFile)).toBe(0o600);
  expect(modeOf(examples)).toBe(0o644);
  // A secret file that does not exist yet is not created.
  expect(fs.existsSync(path.join(folder, 'sandbox-state.json'))).toBe(false);
});

test('a missing demo folder is created 0700', () => {
  const folder = path.join(parent, 'fresh', '.n8n-demo');
  keepSecretFolder(folder, []);
  expect(modeOf(folder)).toBe(0o700);
});

test('a secret written over an existing 0644 file is 0600 and whole, with no temporary file left', () => {
  const file = path.join(parent, 'n8n-api-key.json');
  fs.writeFileSync(file, '{"apiKey":"old"}\n');
  fs.chmodSync(file, 0o644);

  writeSecretFile(file, '{"apiKey":"new"}\n');

  expect(modeOf(file)).toBe(0o600);
  expect(fs.readFileSync(file, 'utf8')).toBe('{"apiKey":"new"}\n');
  expect(fs.readdirSync(parent)).toEqual(['n8n-api-key.json']);
});
