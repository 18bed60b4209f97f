'use strict';
// Resident memory of a process group (n8n's main process and its task runner), read from
// /proc/<pid>/status (VmRSS) every ~20 ms while something runs.
const fs = require('node:fs');

const SAMPLE_EVERY_MS = 20;
const MEMBERS_EVERY_MS = 500;

/** Pids whose process group is `pgid` (field 5 of /proc/<pid>/stat, after the command in parentheses). */
function groupMembers(pgid) {
	const members = [];
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (Number(fields[2]) === pgid) members.push(Number(entry));
		} catch {
			// gone meanwhile
		}
	}
	return members;
}

function rssBytes(pid) {
	try {
		const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
		return match ? Number(match[1]) * 1024 : 0;
	} catch {
		return 0;
	}
}

/** Summed RSS of the group right now, and how many processes it has. */
function groupRss(pgid) {
	const members = groupMembers(pgid);
	return { bytes: members.reduce((sum, pid) => sum + rssBytes(pid), 0), processes: members.length };
}

/**
 * Samples the group's summed RSS while `work()` runs. The baseline is the median of the samples of
 * `settleMs` before it starts; the rise is the peak during the work (and `tailMs` after) minus it.
 */
async function measureRssRise(pgid, work, { settleMs = 600, tailMs = 300 } = {}) {
	let members = groupMembers(pgid);
	const samples = [];
	const sample = () => samples.push({ at: Date.now(), bytes: members.reduce((sum, pid) => sum + rssBytes(pid), 0) });
	const sampler = setInterval(sample, SAMPLE_EVERY_MS);
	const refresher = setInterval(() => (members = groupMembers(pgid)), MEMBERS_EVERY_MS);
	try {
		await new Promise((resolve) => setTimeout(resolve, settleMs));
		const startedAt = Date.now();
		const before = samples.map((entry) => entry.bytes).sort((a, b) => a - b);
		const baseline = before.length ? before[Math.floor(before.length / 2)] : groupRss(pgid).bytes;
		const result = await work();
		await new Promise((resolve) => setTimeout(resolve, tailMs));
		sample();
		const during = samples.filter((entry) => entry.at >= startedAt);
		const peak = Math.max(baseline, ...during.map((entry) => entry.bytes));
		return { result, baseline, peak, rise: peak - baseline, samples: during.length, processes: members.length };
	} finally {
		clearInterval(sampler);
		clearInterval(refresher);
	}
}

module.exports = { groupMembers, groupRss, measureRssRise };
