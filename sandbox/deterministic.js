'use strict';
// Deterministic pseudo-randomness (seeded by text), a small bounded cache and a deep freeze. Seed data must
// be identical on every run, so nothing in the seed uses Math.random.

const crypto = require('node:crypto');

/** mulberry32 generator seeded by the SHA-256 of `seedText`; returns floats in [0, 1). */
function seededRandom(seedText) {
  let state = crypto.createHash('sha256').update(String(seedText)).digest().readUInt32BE(0);
  return function next() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seededDigits(seedText, count) {
  const next = seededRandom(seedText);
  let digits = '';
  while (digits.length < count) digits += String(Math.floor(next() * 10));
  return digits;
}

/**
 * Memoizes `build(...args)` under `key(...args)`, keeping at most `max` results (least recently used is
 * dropped), so big generated files are built once but never pile up in memory.
 */
function boundedCache(build, key, max = 8) {
  const entries = new Map();
  return function cached(...args) {
    const k = key(...args);
    if (entries.has(k)) {
      const value = entries.get(k);
      entries.delete(k);
      entries.set(k, value);
      return value;
    }
    const value = build(...args);
    entries.set(k, value);
    if (entries.size > max) entries.delete(entries.keys().next().value);
    return value;
  };
}

/** Freezes a value and everything in it (shared, cached data must not be changed by whoever reads it). */
function deepFreeze(value) {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

module.exports = { seededRandom, seededDigits, boundedCache, deepFreeze };
