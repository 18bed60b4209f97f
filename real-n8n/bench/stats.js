'use strict';
// Medians with their range, and the ratios the goals are stated in.

function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** {median, min, max, values} of a non-empty list of numbers. */
function summarize(values) {
	if (!values.length) throw new Error('nothing measured');
	return { median: median(values), min: Math.min(...values), max: Math.max(...values), values: [...values] };
}

const MiB = 1024 * 1024;

function formatNumber(value, digits = 0) {
	return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** "3,024 ms (2,950–3,120)" style, with a formatter for one value. */
function formatSummary(summary, format) {
	return `${format(summary.median)} (${format(summary.min)}–${format(summary.max)})`;
}

const ms = (value) => `${formatNumber(value)} ms`;
const mib = (bytes) => `${formatNumber(bytes / MiB, 1)} MiB`;
const perSecond = (value) => `${formatNumber(value)} lines/s`;
const ratio = (value) => `${formatNumber(value, 2)} ×`;

module.exports = { median, summarize, formatNumber, formatSummary, ms, mib, perSecond, ratio, MiB };
