// The settings of the trigger's model-based test (test/reliability/triggerModel), read from the
// environment here: linted TypeScript tests may not read `process` or print.

/** MODEL_RUNS histories (2,000), MODEL_SEED to replay, MODEL_MAX_STEPS per history, MODEL_DISCOVER=1,
 * MODEL_FIRE_ON_RERUN=1. */
function modelSettings() {
	const env = process.env;
	return {
		runs: Number(env.MODEL_RUNS || 2000),
		seed: env.MODEL_SEED ? Number(env.MODEL_SEED) : Math.floor(Math.random() * 0x7fffffff),
		maxSteps: Number(env.MODEL_MAX_STEPS || 24),
		discover: env.MODEL_DISCOVER === '1',
		// Today's node only: set its option Fire Again on Re-Run (the promise's default behaviour).
		fireOnRerun: env.MODEL_FIRE_ON_RERUN === '1',
		// Step kinds left out of the histories, e.g. "rename,restart,pdfOutage".
		exclude: (env.MODEL_EXCLUDE || '')
			.split(',')
			.map((name) => name.trim())
			.filter(Boolean),
	};
}

/** A line for whoever runs the test (the figures, a minimal history). */
function print(text) {
	console.log(text);
}

module.exports = { modelSettings, print };
