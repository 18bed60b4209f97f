'use strict';
// A server in another time zone. Jest gives each test file a copy of `process.env`, so setting TZ there
// never reaches Node's clock: the code runs in a Node process of its own, started with TZ set, on the
// package as built (dist/, which `npm test` builds before Jest runs).
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const DIST = path.join(__dirname, '..', '..', 'dist');

/**
 * What `body` returns, run in a new Node process in the IANA time zone `zone`. `body` is the text of a
 * function body; `dist(relativePath)` in it requires a built module (`dist('nodes/shared/runClaims')`).
 * The result travels as JSON (undefined stays undefined).
 */
function inTimeZone(zone, body) {
	const program = `const dist = (file) => require(${JSON.stringify(DIST)} + '/' + file);
process.stdout.write(JSON.stringify({ value: (() => { ${body} })() }));`;
	const output = execFileSync(process.execPath, ['-e', program], {
		env: { ...process.env, TZ: zone },
		encoding: 'utf8',
	});
	return JSON.parse(output).value;
}

module.exports = { inTimeZone };
