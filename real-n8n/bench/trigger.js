'use strict';
// The trigger's requests per poll: a Payroll Completed trigger watching Current and Previous Month with
// Company ID empty. n8n polls once when a workflow is activated, so every activation is one poll; the
// sandbox's request log tells what that poll sent.
const { triggerWorkflow } = require('./workflows');

const TIME_ZONE = 'Europe/Paris';
const QUIET_MS = 2_000;
const POLL_TIMEOUT_MS = 60_000;

/** YYYYMM of the current and the previous month in the workflow's time zone. */
function watchedMonths(now = new Date()) {
	const [year, month] = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit' })
		.format(now)
		.split('-')
		.map(Number);
	const previous = month === 1 ? [year - 1, 12] : [year, month - 1];
	const format = ([y, m]) => `${y}${String(m).padStart(2, '0')}`;
	return [format([year, month]), format(previous)];
}

const isStatus = (request) => /\/payroll-status$/.test(request.path);
const isIntrospection = (request) => request.path.endsWith('/introspect');

/** Waits for the poll's status requests, then for the log to stay quiet. */
async function pollRequests(sandbox, expectedStatusRequests) {
	const deadline = Date.now() + POLL_TIMEOUT_MS;
	let last = -1;
	let quietSince = Date.now();
	while (Date.now() < deadline) {
		const requests = await sandbox.requests();
		if (requests.length !== last) {
			last = requests.length;
			quietSince = Date.now();
		}
		if (requests.filter(isStatus).length >= expectedStatusRequests && Date.now() - quietSince >= QUIET_MS) return requests;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error('the trigger did not poll within a minute of its activation');
}

/** `runs` polls: activate, read what the poll sent, deactivate. */
async function measureTrigger(bench, sandbox, runs) {
	const months = watchedMonths();
	const created = await bench.publicApi('POST', '/workflows', triggerWorkflow());
	const polls = [];
	for (let run = 0; run < runs; run += 1) {
		await sandbox.clearRequests();
		await bench.publicApi('POST', `/workflows/${created.id}/activate`);
		const requests = await pollRequests(sandbox, months.length);
		await bench.publicApi('POST', `/workflows/${created.id}/deactivate`);
		const statusByMonth = Object.fromEntries(months.map((month) => [month, 0]));
		let otherStatus = 0;
		for (const request of requests.filter(isStatus)) {
			if (request.query?.date in statusByMonth) statusByMonth[request.query.date] += 1;
			else otherStatus += 1;
		}
		polls.push({
			statusByMonth,
			otherStatus,
			introspections: requests.filter(isIntrospection).length,
			requests: requests.length,
		});
	}
	return { months, polls };
}

module.exports = { measureTrigger, watchedMonths, pollRequests, isStatus };
