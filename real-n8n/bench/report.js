'use strict';
// BENCHMARKS.md and the console lines, from the figures of one run (nothing here is typed by hand).
const fs = require('node:fs');
const { summarize, formatSummary, formatNumber, ms, mib, perSecond, ratio, MiB } = require('./stats');

const msPerItem = (value) => `${formatNumber(value, 2)} ms per item`;

const verdict = (met) => (met ? 'met' : 'not met');
/** The first error message of a run's failed items, to say why they failed. */
const firstError = (run) => (run.errors?.length ? `; first error: "${run.errors[0]}"` : '');

/** The figures of a run, each with its goal as a ratio measured in this run. */
function figuresOf(results) {
	const figures = [];
	const { items, downloads = [], parseLines, trigger, limited, queueLimited, webhooks } = results;
	if (items) figures.push(...itemsFigures(items));
	if (limited) figures.push(...limitedFigures(limited));
	if (queueLimited) figures.push(...queueLimitedFigures(queueLimited));
	for (const size of downloads) figures.push(...downloadFigures(size));
	if (parseLines) figures.push(parseLinesFigure(parseLines));
	if (trigger) figures.push(...triggerFigures(trigger));
	if (webhooks) figures.push(...webhookFigures(webhooks));
	return figures;
}

function itemsFigures(items) {
	const figures = [];
	const itemsNode = summarize(items.node.map((run) => run.nodeMs));
	const itemsHttp = summarize(items.http.map((run) => run.nodeMs));
	const itemsRatio = itemsNode.median / itemsHttp.median;
	figures.push({
		subject: `${formatNumber(items.count)} items × Payroll → Get Status (node time in n8n)`,
		node: formatSummary(itemsNode, ms),
		http: formatSummary(itemsHttp, ms),
		ratio: ratio(itemsRatio),
		goal: '≤ 1.00 × HTTP Request (stretch ≤ 0.75 ×)',
		met: `${verdict(itemsRatio <= 1)}${itemsRatio <= 0.75 ? ', stretch met' : ', stretch not met'}`,
	});
	figures.push(connectionsFigure(items));
	return figures;
}

/**
 * Connections and time per item of both nodes against the bench's loop that opens a connection per
 * request: n8n gives every request a node sends an HTTP agent of its own, so that loop is the floor.
 */
function connectionsFigure(items) {
	const per1000 = (run) => (run.connections * 1000) / run.requests;
	const perItem = (run) => run.nodeMs / items.count;
	const loopPerItem = (run) => run.ms / items.count;
	const connectionsAndTime = (runs, timeOf) =>
		`${formatSummary(summarize(runs.map(per1000)), formatNumber)} connections; ${formatSummary(summarize(runs.map(timeOf)), msPerItem)}`;
	const floor = summarize(items.connectionPerRequest.map(loopPerItem));
	const node = summarize(items.node.map(perItem));
	const http = summarize(items.http.map(perItem));
	return {
		subject:
			`TCP connections opened per 1,000 items (sandbox log) and time per item, those ${formatNumber(items.count)} items, against a loop that opens a connection per request. ` +
			'n8n builds a new HTTP agent for every request a node sends (n8n 2.8: n8n-core `setAxiosAgents` → `createHttpProxyAgent`, dist/http-proxy.js; ' +
			'2.40: @n8n/backend-network `setAxiosAgents` → `buildNodeAgents`, dist/http/node-agents.js) and community nodes may not import http or https, so no n8n node keeps a connection alive',
		node: `${connectionsAndTime(items.node, perItem)}; ${ratio(node.median / floor.median)} the floor`,
		http: `${connectionsAndTime(items.http, perItem)}; ${ratio(http.median / floor.median)} the floor`,
		ratio: ratio(node.median / http.median),
		goal:
			`reference, the floor: the same GETs from the bench process, a new http.Agent each: ${connectionsAndTime(items.connectionPerRequest, loopPerItem)}` +
			` (aside: on one kept-alive connection, which no n8n node can have, ${connectionsAndTime(items.keptAlive, loopPerItem)})`,
		met: '—',
	};
}

/** A run with files at the rate limit: its time against the floor of the requests it needed. */
function limitedFilesFigure(run, readsPerSecond, subject) {
	const floorMs = (run.served / readsPerSecond) * 1000;
	const complete = run.failed === 0 && run.files === run.expectedFiles;
	return {
		subject: `${subject}: node time against the limit's floor (${formatNumber(run.served)} requests / ${readsPerSecond} per second = ${formatNumber(floorMs)} ms); failed items; 429s sent by the service`,
		node: `${ms(run.nodeMs)} (${ratio(run.nodeMs / floorMs)} the floor); failed ${run.failed}; files ${run.files} of ${run.expectedFiles}; 429s ${run.refused}${firstError(run)}`,
		http: '—',
		ratio: '—',
		goal: '0 failures',
		met: verdict(complete),
	};
}

function limitedFigures(limited) {
	const figures = [];
	const floorMs = (limited.items / limited.readsPerSecond) * 1000;
	const ofFloor = limited.node.nodeMs / floorMs;
	figures.push({
		subject: `At the rate limit (${limited.readsPerSecond} reads/s): ${formatNumber(limited.items)} items × Get Status, default settings: node time against the limit's floor (${formatNumber(floorMs / 1000)} s); failed items; 429s sent by the service`,
		node: `${ms(limited.node.nodeMs)} (${ratio(ofFloor)} the floor); failed ${limited.node.failed}; 429s ${limited.node.refused}${firstError(limited.node)}`,
		http: `default: ${ms(limited.http.nodeMs)}, failed ${limited.http.failed}, 429s ${limited.http.refused}; Batching 50 per 1000 ms: ${ms(limited.httpBatched.nodeMs)} (${ratio(limited.httpBatched.nodeMs / floorMs)} the floor), failed ${limited.httpBatched.failed}, 429s ${limited.httpBatched.refused}`,
		ratio: ratio(limited.node.nodeMs / limited.httpBatched.nodeMs),
		goal: '0 failed items, ≤ 1.15 × the floor',
		met: verdict(limited.node.failed === 0 && ofFloor <= 1.15),
	});
	const two = limited.twoExecutions;
	const twoOfFloor = two.totalMs / floorMs;
	figures.push({
		subject: `At the rate limit: two executions of ${formatNumber(limited.items / 2)} items started at the same moment in one n8n (wall time until both ended)`,
		node: `${ms(two.totalMs)} (${ratio(twoOfFloor)} the floor); failed ${two.failed.join(' and ')}; 429s ${two.refused}${firstError(two)}`,
		http: '—',
		ratio: '—',
		goal: '0 failed items in both',
		met: verdict(two.failed.every((count) => count === 0)),
	});
	if (limited.paymentFiles) {
		const files = limited.paymentFiles;
		figures.push(limitedFilesFigure(files, limited.readsPerSecond, `At the rate limit: ${files.expectedFiles} items × Download Payment File (${formatNumber(files.bytes)} bytes each) in one execution`));
	}
	if (limited.listing) {
		const listing = limited.listing;
		figures.push(limitedFilesFigure(listing, limited.readsPerSecond, `At the rate limit: Document → Get Income Tax Documents of ${listing.company} with Download Files, ${listing.expectedFiles} PDFs (one listing, then a download per document)`));
	}
	return figures;
}

/** Queue mode at the rate limit: every run in its cell (one run each, on a shared machine), with the load it started at. */
function queueLimitedFigures(queue) {
	const floorMs = (queue.items / queue.readsPerSecond) * 1000;
	const runs = (format) => queue.runs.map((run, index) => `run ${index + 1} (load ${run.load}): ${format(run)}`).join('; ');
	const noneFailed = (counts) => counts.every((count) => count === 0);
	return [
		{
			subject: `Queue mode, ${queue.workers} workers, at the rate limit (${queue.readsPerSecond} reads/s): ${formatNumber(queue.items)} items × Get Status in one execution (one worker): node time against the floor (${formatNumber(floorMs / 1000)} s); failed items; 429s sent by the service`,
			node: runs(({ one }) => `${ms(one.nodeMs)} (${ratio(one.nodeMs / floorMs)} the floor) on ${one.worker}, failed ${one.failed}, 429s ${one.refused}${firstError(one)}`),
			http: '—',
			ratio: '—',
			goal: '0 failed items',
			met: verdict(noneFailed(queue.runs.map((run) => run.one.failed))),
		},
		{
			subject: `Queue mode, ${queue.workers} workers, at the rate limit: two executions of ${formatNumber(queue.items / 2)} items started at the same moment, one on each worker (wall time until both ended; node times)`,
			node: runs(
				({ two }) =>
					`${ms(two.totalMs)} (${ratio(two.totalMs / floorMs)} the floor) on ${two.workers.join(' and ')}, node ${two.nodeMs.map(ms).join(' and ')}, failed ${two.failed.join(' and ')}, 429s ${two.refused}${firstError(two)}`,
			),
			http: '—',
			ratio: '—',
			goal: '0 failed items in both',
			met: verdict(noneFailed(queue.runs.flatMap((run) => run.two.failed))),
		},
	];
}

function downloadFigures(size) {
	const figures = [];
	const timeNode = summarize(size.node.map((run) => run.nodeMs));
	const timeHttp = summarize(size.http.map((run) => run.nodeMs));
	figures.push({
		subject: `Download Payment File, ${formatNumber(size.bytes)} bytes: time`,
		node: formatSummary(timeNode, ms),
		http: formatSummary(timeHttp, ms),
		ratio: ratio(timeNode.median / timeHttp.median),
		goal: 'none',
		met: '—',
	});
	const riseNode = summarize(size.node.map((run) => run.rise));
	const riseHttp = summarize(size.http.map((run) => run.rise));
	const ofHttp = riseNode.median / riseHttp.median;
	const ofFile = riseNode.median / size.bytes;
	const large = size.bytes >= 10 * MiB;
	figures.push({
		subject: `Download Payment File, ${formatNumber(size.bytes)} bytes: RSS rise of n8n (main + task runner)`,
		node: `${formatSummary(riseNode, mib)}; ${ratio(ofFile)} the file`,
		http: `${formatSummary(riseHttp, mib)}; ${ratio(riseHttp.median / size.bytes)} the file`,
		ratio: ratio(ofHttp),
		goal: large ? '≤ 1.00 × HTTP Request and ≤ 1.00 × the file' : 'none',
		met: large ? verdict(ofHttp <= 1 && ofFile <= 1) : '—',
	});
	if (size.streamFloor?.length) {
		const floor = summarize(size.streamFloor.map((run) => run.rise));
		figures.push({
			subject: `Download of the same ${formatNumber(size.bytes)} bytes by a plain Node.js process (n8n's Node.js) that pipes the answer into a file (the floor of a streamed download)`,
			node: '—',
			http: '—',
			ratio: '—',
			goal: `reference: RSS rise ${formatSummary(floor, mib)}; ${ratio(floor.median / size.bytes)} the file`,
			met: '—',
		});
	}
	return figures;
}

function parseLinesFigure(parseLines) {
	const nodeRate = summarize(parseLines.node.map((run) => (run.lines / run.nodeMs) * 1000));
	const oracleRate = summarize(parseLines.oracle.map((run) => (parseLines.lines / run.totalMs) * 1000));
	const parseOnly = summarize(parseLines.oracle.map((run) => (parseLines.lines / run.parseMs) * 1000));
	const identical = parseLines.node.every((run) => run.identical);
	const rateRatio = nodeRate.median / oracleRate.median;
	return {
		subject: `Download CSV with Parse Lines, ${formatNumber(parseLines.lines)} lines (${mib(parseLines.bytes)}): throughput, node time in n8n (download included) vs csv-parse + mapping in the bench`,
		node: formatSummary(nodeRate, perSecond),
		http: `csv-parse: ${formatSummary(oracleRate, perSecond)} (parsing alone ${formatSummary(parseOnly, perSecond)})`,
		ratio: ratio(rateRatio),
		goal: '≥ 1.00 × csv-parse, identical output',
		met: `${verdict(rateRatio >= 1 && identical)}; output ${identical ? 'identical' : `differs: ${parseLines.node.find((run) => !run.identical).difference.slice(0, 300)}`}`,
	};
}

function triggerFigures(trigger) {
	const figures = [];
	const perMonth = trigger.polls.flatMap((poll) => Object.values(poll.statusByMonth));
	const introspections = trigger.polls.map((poll) => poll.introspections);
	const exactlyOne = perMonth.every((count) => count === 1) && trigger.polls.every((poll) => poll.otherStatus === 0);
	figures.push({
		subject: `Trigger Payroll Completed, Current and Previous Month (${trigger.months.join(', ')}), Company ID empty: status requests per watched month per poll`,
		node: formatSummary(summarize(perMonth), formatNumber),
		http: '—',
		ratio: '—',
		goal: 'exactly 1',
		met: verdict(exactlyOne),
	});
	figures.push({
		subject: 'Trigger: introspections per poll',
		node: formatSummary(summarize(introspections), formatNumber),
		http: '—',
		ratio: '—',
		goal: '≤ 1',
		met: verdict(introspections.every((count) => count <= 1)),
	});
	return figures;
}

/**
 * The webhook trigger (signature checked, duplicates recorded) against a community trigger that checks
 * nothing (the bench's fixture) and n8n's Webhook node, the same deliveries.
 */
function webhookFigures(webhooks) {
	const receivers = ['trigger', 'fixture', 'plain'];
	const notAccepted = (who) => [...webhooks.latency[who], ...webhooks.throughput[who]].reduce((sum, run) => sum + run.failed, 0);
	const latency = Object.fromEntries(receivers.map((who) => [who, summarize(webhooks.latency[who].map((run) => run.medianMs))]));
	const rate = Object.fromEntries(receivers.map((who) => [who, summarize(webhooks.throughput[who].map((run) => run.perSecond))]));
	const p99 = Object.fromEntries(receivers.map((who) => [who, summarize(webhooks.throughput[who].map((run) => run.p99Ms))]));
	const { events, deliveries } = webhooks.throughput.trigger[0];
	const tenthsOfMs = (value) => `${formatNumber(value, 1)} ms`;
	const deliveriesPerSecond = (value) => `${formatNumber(value, 1)} deliveries/s`;
	const failures = `not 2xx: ${receivers.map(notAccepted).join(', ')}`;
	const startedOnce = webhooks.throughput.trigger.every((run) => run.startedByTrigger === run.events);
	const rateRatio = rate.trigger.median / rate.fixture.median;
	const throughputOf = (who) => `${formatSummary(rate[who], deliveriesPerSecond)}; p99 ${formatSummary(p99[who], ms)}`;
	const triggerOk = notAccepted('trigger') === 0;
	const filled = webhooks.fillRecord ? ` (the webhook trigger's record first filled by ${formatNumber(webhooks.fillRecord)} new events, not measured)` : '';
	return [
		{
			subject: `Webhook delivery, one at a time from the sandbox (Svix's way, signed): time from the send to the end of the answer (median per run; each delivery a new event, so an execution starts)${filled}`,
			node: formatSummary(latency.trigger, tenthsOfMs),
			http: `community trigger that checks nothing: ${formatSummary(latency.fixture, tenthsOfMs)}; Webhook node: ${formatSummary(latency.plain, tenthsOfMs)}`,
			ratio: ratio(latency.trigger.median / latency.fixture.median),
			goal: 'well under 15 s (Svix fails slower answers)',
			met: `${verdict(latency.trigger.max < 15_000 && triggerOk)}; ${failures}`,
		},
		{
			subject: `Webhook deliveries per second one n8n accepts: ${formatNumber(events)} signed events each delivered twice (the copy after the first answer, as Svix sends a delivery again), ${formatNumber(deliveries)} deliveries, ${webhooks.inFlight} at a time; p99 of the answers' times${filled}`,
			node: `${throughputOf('trigger')}; workflow started for ${webhooks.throughput.trigger.map((run) => run.startedByTrigger).join(', ')} of ${formatNumber(events)} events`,
			http: `community trigger that checks nothing (bench/fixtures): ${throughputOf('fixture')}; Webhook node: ${throughputOf('plain')} (both start one for every delivery)`,
			ratio: ratio(rateRatio),
			goal: '≥ 0.90 × the community trigger that checks nothing, p99 ≤ 1 s, each event started once',
			met: `${verdict(rateRatio >= 0.9 && p99.trigger.max <= 1000 && startedOnce && triggerOk)}; ${failures}`,
		},
	];
}

function consoleLines(figures) {
	return figures.map((figure) =>
		[
			figure.subject,
			figure.node !== '—' ? `node ${figure.node}` : null,
			figure.http !== '—' ? `${/^(csv-parse|community trigger)/.test(figure.http) ? '' : 'HTTP Request '}${figure.http}` : null,
			figure.ratio !== '—' ? `ratio ${figure.ratio}` : null,
			`goal ${figure.goal}`,
			figure.met !== '—' ? figure.met : null,
		]
			.filter(Boolean)
			.join(' | '),
	);
}

const cell = (text) => String(text).replace(/\|/g, '\\|');

/** The "Runs" list: every measured run of the sections this run had. */
function runLines({ items, downloads = [], parseLines, trigger, limited, webhooks }) {
	const perRun = (label, list, format) => `- ${label}: ${list.map(format).join(', ')}`;
	const lines = [];
	if (items) {
		lines.push(
			perRun('1,000 items, package node (ms)', items.node, (run) => formatNumber(run.nodeMs)),
			perRun('1,000 items, HTTP Request (ms)', items.http, (run) => formatNumber(run.nodeMs)),
			perRun('1,000 items, package node: requests / TCP connections', items.node, (run) => `${run.requests}/${run.connections}`),
			perRun('1,000 items, HTTP Request: requests / TCP connections', items.http, (run) => `${run.requests}/${run.connections}`),
			perRun('1,000 GETs from the bench, a connection per request (ms; requests / TCP connections)', items.connectionPerRequest, (run) => `${formatNumber(run.ms)}; ${run.requests}/${run.connections}`),
			perRun('1,000 GETs from the bench, one kept-alive connection (ms; requests / TCP connections)', items.keptAlive, (run) => `${formatNumber(run.ms)}; ${run.requests}/${run.connections}`),
		);
	}
	if (limited?.paymentFiles) {
		for (const [label, run] of [['payment files', limited.paymentFiles], ['listing with Download Files', limited.listing]]) {
			lines.push(`- At the rate limit, ${label}: ${run.items} items out, ${run.files} with a file, ${run.failed} failed; ${run.served} API requests served, ${run.refused} refused (429)`);
		}
	}
	for (const size of downloads) {
		lines.push(
			perRun(`${formatNumber(size.bytes)} bytes, package node (ms; RSS rise)`, size.node, (run) => `${formatNumber(run.nodeMs)}; ${mib(run.rise)}`),
			perRun(`${formatNumber(size.bytes)} bytes, HTTP Request (ms; RSS rise)`, size.http, (run) => `${formatNumber(run.nodeMs)}; ${mib(run.rise)}`),
			...(size.streamFloor?.length ? [perRun(`${formatNumber(size.bytes)} bytes, plain Node.js stream into a file (RSS rise)`, size.streamFloor, (run) => mib(run.rise))] : []),
		);
	}
	if (parseLines) {
		lines.push(
			perRun('Parse Lines, package node (ms)', parseLines.node, (run) => formatNumber(run.nodeMs)),
			perRun('csv-parse + mapping (ms)', parseLines.oracle, (run) => formatNumber(run.totalMs)),
		);
	}
	if (trigger) lines.push(perRun('Trigger polls (status requests per month; introspections)', trigger.polls, (poll) => `${JSON.stringify(poll.statusByMonth)}; ${poll.introspections}`));
	if (webhooks) {
		const filled = webhooks.fillRecord ? `the webhook trigger's record filled by ${formatNumber(webhooks.fillRecord)} events first, ` : '';
		for (const [who, receiver] of [['trigger', 'webhook trigger'], ['fixture', 'community trigger that checks nothing'], ['plain', "n8n's Webhook node"]]) {
			const label = `${filled}${receiver}`;
			lines.push(
				perRun(`Webhook deliveries, ${label}: answer time, median (ms)`, webhooks.latency[who], (run) => formatNumber(run.medianMs)),
				perRun(`Webhook deliveries, ${label}: deliveries per second (p99 ms; not 2xx; load average at its start)`, webhooks.throughput[who], (run) => `${formatNumber(run.perSecond, 1)} (${formatNumber(run.p99Ms)}; ${run.failed}; ${formatNumber(run.load, 2)})`),
			);
		}
	}
	return lines.join('\n');
}

function markdown({ figures, machine, results, runs, command, durationMs, only }) {
	const rows = figures.map((figure) => `| ${[figure.subject, figure.node, figure.http, figure.ratio, figure.goal, figure.met].map(cell).join(' | ')} |`);
	return `# Benchmarks${only ? ` (the ${only.join(', ')} section${only.length > 1 ? 's' : ''} only)` : ''}

Written by \`npm run bench\` (real-n8n/bench/) on ${machine.date}; every number below comes from that run.
Each figure is the median of ${runs} runs with the range (min–max) in parentheses, and each goal is a ratio
against n8n's own HTTP Request node (header auth, the same sandbox, the same n8n process), measured in the
same run: the machine is shared and noisy, so absolute numbers move between runs and ratios much less.
At the service's rate limit every figure is one run, and its goal is stated against the limit's floor:
the API requests the run needed (429s not counted) at 50 per second.

## Machine

| | |
|---|---|
| CPU | ${machine.cores} cores (${machine.cpuModel}) |
| Memory | ${machine.memory} |
| Load average at start | ${machine.load} |
| Node.js running n8n | ${machine.nodeVersion} |
| n8n | ${machine.n8nVersion} (HTTP Request node version ${machine.httpRequestVersion}) |
| Package | ${machine.packageVersion}, commit ${machine.commit} |
| Bench duration | ${Math.round(durationMs / 1000)} s |

## Results

| Figure | This package's node | n8n's HTTP Request node | Ratio | Goal | |
|---|---|---|---|---|---|
${rows.join('\n')}

Times are the node's own execution time as n8n records it (\`executionTime\` of its run), so the webhook,
the workflow around it and saving the execution are not counted. RSS is the resident memory of the n8n
process group (main process and JS task runner) read from \`/proc/<pid>/status\` every 20 ms: the rise is the
peak during the run minus the median of the 600 ms before it. Each download is measured in a freshly
started n8n (after one warm-up download of the same node at the small size), the node and HTTP Request
alternating, so memory left over by one does not hide the other's. The floor row is a fresh plain Node.js process
(the same Node.js binary, one warm-up request) that pipes the same answer into a file with
\`fs.promises.writeFile\`, its RSS measured the same way: what a streamed download costs before n8n adds anything.
At the rate limit, failed items are counted as n8n outputs them with On Error → Continue (an item with
\`json.error\`); the payment files are the sandbox's small size, and for Download Files the sandbox lists 50
documents of GB3001 (\`listedDocuments\`), read with GB3001's token of the same client application.
In queue mode (Redis, Postgres, a main and two workers of the same n8n, each worker running one execution at a
time, the single n8n stopped), every run is listed with the load average at its start; a run is 1,000 items
in one execution, then two executions of 500 started together, which the workers' logs show on one worker each.
The connection-per-request floor is the bench process sending the same 1,000 GETs one after the other with a
new \`http.Agent\` each, as n8n builds one for every request a node sends; the sandbox numbers the TCP
connections. Webhook deliveries go to three receivers in the same n8n: the package's webhook trigger, a
community trigger that checks nothing (\`real-n8n/bench/fixtures/n8n-nodes-bench-plain-webhook\`, installed from
\`npm pack\` as the package is) and n8n's Webhook node; every event is sent twice, the copy once the first answer
came (as Svix sends a delivery again), and p99 is over every answer of a run. \`node real-n8n/bench/profile.js
--webhooks\` shows where each receiver's time goes (docs/performance.md).

## Runs

${runLines(results)}

## How to run

\`\`\`sh
npm run bench                          # builds, installs n8n if needed, about 5 to 10 minutes
npm run bench -- --runs 5              # more runs per figure
npm run bench -- --n8n-version 2.8.4   # another n8n of the matrix, when the real-n8n library offers one
npm run bench -- --no-build            # use dist/ as it is
npm run bench -- --only rate-limit --runs 1 --output /tmp/bench-rl.md   # only the rate-limit rows, elsewhere
npm run bench -- --only items,webhooks --output /tmp/bench-some.md      # some sections (--help lists them), elsewhere
npm run bench -- --only queue-rate-limit --runs 2 --output /tmp/bench-queue.md   # queue mode: a main, two workers, Redis, Postgres
npm run bench -- --only webhooks --fill-record 4000 --output /tmp/bench-full.md  # the webhook trigger's record full first, as after a partner's month-end
\`\`\`

This run: \`${command}\`. The bench starts the sandbox (\`sandbox/cli.js\` with \`--accounting-lines\` and
\`--payment-file-bytes\`) in its own process and a throwaway n8n with the package installed from
\`npm pack\` (real-n8n/lib), imports one webhook workflow per subject (Webhook → [Code: 1,000 items] → the node),
and calls them. Parse Lines is compared item by item with \`csv-parse\` (a devDependency) plus an independent
mapping to the node's item shape. The trigger is activated once per run through n8n's public API: n8n polls
once at activation, and the sandbox's request log (which numbers TCP connections too) tells what the poll sent.
`;
}

/** The section partner-scale.js measures, written by hand: a new report keeps it where it was. */
const HAND_WRITTEN_SECTION = '## Partners at scale';

/** The hand-written section of the report already in `file` (up to the next section), or ''. */
function handWrittenSection(file) {
	const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
	const start = existing.indexOf(`\n${HAND_WRITTEN_SECTION}`);
	if (start === -1) return '';
	const end = existing.indexOf('\n## ', start + 1);
	return existing.slice(start + 1, end === -1 ? undefined : end + 1);
}

function writeReport(file, context) {
	const report = markdown(context);
	const kept = handWrittenSection(file);
	fs.writeFileSync(file, kept ? report.replace('\n## Runs\n', () => `\n${kept}## Runs\n`) : report);
}

module.exports = { figuresOf, consoleLines, writeReport };
