'use strict';
// n8n CLI commands (import, export, execute) run to completion under a time limit, output in a file.
const fs = require('node:fs');
const path = require('node:path');
const { n8nRuntime } = require('./runtimes');
const { runToCompletion } = require('./process');

const DEFAULT_TIMEOUT_MS = 180_000;

class N8nCliError extends Error {
	constructor(args, result) {
		const reason = result.timedOut ? 'timed out' : `exited with ${result.code ?? result.signal}`;
		super(`n8n ${args.join(' ')} ${reason}\n${tail(result.output)}`);
		this.result = result;
	}
}

function tail(text, lines = 40) {
	return text.split('\n').slice(-lines).join('\n');
}

/**
 * One n8n CLI process for a given environment (user folder). Every command's output goes to
 * <userFolder>/cli.log; `run` returns it with the exit code.
 */
class N8nCli {
	/** `runtime`: the n8n version of the matrix (runtimes.js); `env` comes from n8nEnv for the same runtime. */
	constructor(env, runtime = n8nRuntime()) {
		this.env = env;
		this.runtime = runtime;
		this.userFolder = env.N8N_USER_FOLDER;
		this.logFile = path.join(this.userFolder, 'cli.log');
		fs.mkdirSync(this.userFolder, { recursive: true });
	}

	async run(args, { timeoutMs = DEFAULT_TIMEOUT_MS } = {}) {
		return runToCompletion(this.runtime.n8nBin, args, {
			env: this.env,
			cwd: this.userFolder,
			logFile: this.logFile,
			timeoutMs,
		});
	}

	/** Like `run`, but a non-zero exit is an error. */
	async runOk(args, options) {
		const result = await this.run(args, options);
		if (result.code !== 0) throw new N8nCliError(args, result);
		return result;
	}

	/** Import credentials given as `{id, name, type, data}` with plain `data`: n8n encrypts it. */
	async importCredentials(credentials) {
		const file = this.writeInput('credentials.json', credentials);
		await this.runOk(['import:credentials', `--input=${file}`]);
	}

	async importWorkflows(workflows) {
		const dir = path.join(this.userFolder, 'import-workflows');
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(dir, { recursive: true });
		for (const workflow of workflows) {
			fs.writeFileSync(path.join(dir, `${workflow.id}.json`), JSON.stringify(workflow, null, 2));
		}
		await this.runOk(['import:workflow', '--separate', `--input=${dir}`]);
	}

	async publishWorkflow(id) {
		await this.runOk(['publish:workflow', `--id=${id}`]);
	}

	/** Decrypted credential data as n8n holds it (tokens included: never log the result). */
	async exportCredential(id) {
		const file = path.join(this.userFolder, `export-${id}.json`);
		try {
			await this.runOk(['export:credentials', `--id=${id}`, '--decrypted', `--output=${file}`]);
			const [credential] = JSON.parse(fs.readFileSync(file, 'utf8'));
			return credential;
		} finally {
			fs.rmSync(file, { force: true });
		}
	}

	/**
	 * `n8n execute --id --rawOutput`. Resolves {ok, run} where `run` is the run data n8n printed
	 * (success and failure both print it), or throws when nothing parseable came out.
	 */
	async executeWorkflow(id, options) {
		const result = await this.run(['execute', `--id=${id}`, '--rawOutput'], options);
		if (result.timedOut) throw new N8nCliError(['execute', id], result);
		const run = parseExecuteOutput(result.output);
		if (!run) throw new N8nCliError(['execute', id], result);
		// n8n 2.40's `execute` sometimes dies by a signal (SIGSEGV, SIGILL) on its way out, after it
		// printed the run: then the run data, not the exit code, tells whether the workflow succeeded.
		const diedAfterPrinting = result.code === null && Boolean(result.signal);
		const ok = result.code === 0 || (diedAfterPrinting && !run.data?.resultData?.error);
		return { ok, run };
	}

	/**
	 * `n8n execute-batch`: the workflows run one after the other in one process. Resolves
	 * {ok, runs: {[id]: run data}, errors: [{workflowId, error}]}; n8n writes the run data of each
	 * workflow that succeeded as a snapshot, and only a message for each one that failed. `--retries=0`:
	 * n8n's default runs each failed workflow once more, which would hide a failure and repeat its writes.
	 */
	async executeBatch(ids, options) {
		const dir = path.join(this.userFolder, 'batch');
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(path.join(dir, 'snapshots'), { recursive: true });
		const summaryFile = path.join(dir, 'summary.json');
		const args = [
			'execute-batch',
			`--ids=${ids.join(',')}`,
			`--snapshot=${path.join(dir, 'snapshots')}`,
			`--output=${summaryFile}`,
			'--retries=0',
		];
		const result = await this.run(args, options);
		if (result.timedOut || !fs.existsSync(summaryFile)) throw new N8nCliError(['execute-batch'], result);
		const summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
		const runs = {};
		for (const id of ids) {
			const snapshot = path.join(dir, 'snapshots', `${id}-snapshot.json`);
			if (fs.existsSync(snapshot)) runs[id] = JSON.parse(fs.readFileSync(snapshot, 'utf8'));
		}
		return { ok: result.code === 0, runs, errors: summary.summary?.errors ?? [], output: result.output };
	}

	writeInput(name, value) {
		const file = path.join(this.userFolder, name);
		fs.writeFileSync(file, JSON.stringify(value, null, 2));
		return file;
	}
}

/**
 * The run data in `n8n execute --rawOutput` output. Log lines (task broker, runner) come around it;
 * the JSON is printed pretty, so its first line is `{` and its last line `}`, alone at column 0.
 */
function parseExecuteOutput(output) {
	const lines = output.split('\n');
	const first = lines.findIndex((line) => line === '{');
	if (first === -1) return null;
	const last = lines.findIndex((line, index) => index > first && line === '}');
	if (last === -1) return null;
	return JSON.parse(lines.slice(first, last + 1).join('\n'));
}

module.exports = { N8nCli, N8nCliError, parseExecuteOutput };
