'use strict';
// Files that hold live secrets (tokens, API keys, signing secrets) and the folder that keeps them, as the
// demo (`npm start`) and the sandbox's state file write them: readable by their owner only. A mode given
// to writeFileSync or mkdirSync applies only to what they create, so a file or folder that already
// exists with wider modes (copied, restored, made by an older version) is narrowed explicitly.

const fs = require('node:fs');
const path = require('node:path');

const SECRET_FILE_MODE = 0o600;
const SECRET_FOLDER_MODE = 0o700;

/** Writes `text` whole (temporary file and rename, so a crash never leaves half a file) at mode 0600. */
function writeSecretFile(file, text) {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(temporary, text, { mode: SECRET_FILE_MODE });
  // The temporary file may have been left behind by a crash, with another mode.
  fs.chmodSync(temporary, SECRET_FILE_MODE);
  fs.renameSync(temporary, file);
}

/** The folder, created when missing, and the secret files in it that exist: 0700 and 0600, whatever they were. */
function keepSecretFolder(folder, secretFiles) {
  fs.mkdirSync(folder, { recursive: true, mode: SECRET_FOLDER_MODE });
  fs.chmodSync(folder, SECRET_FOLDER_MODE);
  for (const file of secretFiles) {
    if (fs.existsSync(file)) fs.chmodSync(file, SECRET_FILE_MODE);
  }
}

module.exports = { writeSecretFile, keepSecretFolder };
