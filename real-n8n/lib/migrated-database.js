'use strict';
// A new user folder's SQLite database is migrated by the first n8n process that opens it: about 5 s of CPU
// for n8n 2.40, paid again by every suite, each in its own user folder. The lab migrates one database per n8n
// version once, with n8n's own CLI (`npm run prerequisites`), and a new user folder starts from a copy of it:
// the tables and rows n8n itself made, so n8n finds its migrations done and nothing else changes. Without
// that copy (a suite run before the prerequisites), n8n migrates the new folder's database itself.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { N8nCli } = require('./cli');
const { n8nEnv } = require('./env');
const { moveIntoPlace } = require('./folders');
const { installedN8nVersion, isN8nInstalled } = require('./install');
const { freePort } = require('./ports');

/** SQLite's files of n8n's database in a user folder's `.n8n`. */
const DATABASE_FILES = ['database.sqlite', 'database.sqlite-wal', 'database.sqlite-shm'];

const migratedDir = (runtime) => path.join(runtime.installDir, `migrated-database-${installedN8nVersion(runtime)}`);

function copyDatabase(fromDir, toDir) {
	fs.mkdirSync(toDir, { recursive: true });
	for (const name of DATABASE_FILES) {
		if (fs.existsSync(path.join(fromDir, name))) fs.copyFileSync(path.join(fromDir, name), path.join(toDir, name));
	}
}

/** Migrates a database for `runtime` into its install folder, unless one is there. */
async function ensureMigratedDatabase(runtime) {
	const target = migratedDir(runtime);
	if (fs.existsSync(target)) return;
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-migrate-'));
	try {
		const env = n8nEnv({ userFolder, port: await freePort(), brokerPort: await freePort(), runtime });
		// Any command opens the database, and n8n migrates it first; this one then lists nothing.
		await new N8nCli(env, runtime).runOk(['list:workflow']);
		const staged = `${target}.${process.pid}`;
		copyDatabase(path.join(userFolder, '.n8n'), staged);
		// Another process may put its copy there first: the same migrations.
		moveIntoPlace(staged, target);
	} finally {
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
}

/** Puts the migrated database of `runtime`, when there is one, into a new user folder. */
function seedMigratedDatabase(userFolder, runtime) {
	if (!isN8nInstalled(runtime)) return;
	const source = migratedDir(runtime);
	if (fs.existsSync(source)) copyDatabase(source, path.join(userFolder, '.n8n'));
}

module.exports = { ensureMigratedDatabase, seedMigratedDatabase };
