import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import type { HealthMemory } from './companyHealth';
import type { ServiceEvent } from './events';
import { isInFlight } from '../../shared/inFlight';
import { recordDigest, storedDigests } from '../../shared/recordDigest';
import { dedupeKey, monthKey } from './webhookItems';

// The dedupe record: which events and message ids were handed to n8n, so that a retry, a replay or
// a re-send with a new message id starts no second execution.
//
// Two places, because n8n offers a webhook node nothing atomic and shared:
// - the workflow's static data (node scope): persisted by n8n after the answer's execution was
//   created, so it survives restarts and republishing and is read by every process, but it is saved
//   as a whole object, last save wins, and concurrent requests start from the same snapshot;
// - this process's memory: deliveries still being handed to n8n (in flight), and those handed over,
//   so a copy arriving before or during the first one's save is recognised, and a save that lost
//   to a concurrent one is repaired by the next (each save writes the union of both).

/** Bounds of the stored record (the oldest entries go first): about 100 KB of JSON when full. */
export const RECORD_LIMITS = { eventKeys: 2000, eventDates: 4000, messageIds: 1000 };

/** What was handed to n8n, each entry a `recordDigest`, oldest first. */
export interface DeliveryRecord {
	/** Event keys: a month's key or an integration change's key. */
	events: string[];
	/** Event keys with the effectiveDate handed over: a re-run of a month has a new one. */
	dates: string[];
	/** Svix message ids. */
	messages: string[];
}

const EMPTY_RECORD: DeliveryRecord = Object.freeze({ events: [], dates: [], messages: [] });

export type Decision =
	| { kind: 'fire'; isRerun: boolean }
	| { kind: 'duplicate'; why: string }
	| { kind: 'inFlight'; why: string };

interface ScopeMemory {
	delivered: DeliveryRecord;
	/** Message ids and event keys being handed over → since when (ms). */
	inFlight: Map<string, number>;
	/** The connection changes of a linked Partner API credential's companies. */
	health: HealthMemory;
	/** The signing keys of the last delivery verified with the credential as read then (knownCopy.ts). */
	verifiedWith?: { credentialId: string; keys: Buffer[] };
}

const memoryByScope = new Map<string, ScopeMemory>();

/** This process's memory of one trigger node of one workflow. */
export function processMemory(scope: string): ScopeMemory {
	let memory = memoryByScope.get(scope);
	if (!memory) {
		memory = {
			delivered: { events: [], dates: [], messages: [] },
			inFlight: new Map(),
			health: { known: {}, holding: new Map() },
		};
		memoryByScope.set(scope, memory);
	}
	return memory;
}

/** The memory of the trigger node of `context`'s workflow. */
export const memoryOf = (context: IWebhookFunctions): ScopeMemory =>
	processMemory(`${context.getWorkflow().id ?? ''}:${context.getNode().id}`);

// n8n quirk Q3: docs/n8n-quirks.md
/**
 * Where the record sits in the workflow's static data: under the node's id, not its name (n8n keys
 * a node's own static data by name), so a rename keeps it.
 */
export const recordKeyOf = (context: IWebhookFunctions): string =>
	`partnerPayrollWebhookTrigger:${context.getNode().id}`;

/** Forgets every scope: tests only (a new process starts empty). */
export function forgetProcessMemory(): void {
	memoryByScope.clear();
}

/** The stored record, whatever static data holds (nothing yet, or an unexpected shape: empty). */
export function readRecord(stored: unknown): DeliveryRecord {
	const record = (stored && typeof stored === 'object' ? stored : {}) as Partial<DeliveryRecord>;
	return {
		events: storedDigests(record.events),
		dates: storedDigests(record.dates),
		messages: storedDigests(record.messages),
	};
}

/** Whether the message was handed to n8n, as the stored record or this process's memory knows. */
export function wasHandedOver(
	stored: DeliveryRecord,
	memory: ScopeMemory,
	messageId: string,
): boolean {
	const message = recordDigest(messageId);
	return stored.messages.includes(message) || memory.delivered.messages.includes(message);
}

/** Why a delivery of a message handed over before starts nothing. */
export const messageAlreadyDelivered = (messageId: string): string =>
	`message ${messageId} was already delivered`;

/** The key a delivery is held and recorded under: a month's key, whatever its date, or a change's. */
function eventKey(event: ServiceEvent): string {
	return event.month === undefined
		? dedupeKey(event, false)
		: monthKey(event.companyId, event.month);
}

/** A delivery's entries in the record. */
function entriesOf(event: ServiceEvent, messageId: string) {
	const key = eventKey(event);
	return {
		key,
		event: recordDigest(key),
		date: recordDigest(`${key} ${event.effectiveDate}`),
		message: recordDigest(messageId),
	};
}

const inEither = (first: string[], second: string[], digest: string): boolean =>
	first.includes(digest) || second.includes(digest);

/**
 * What to do with a verified delivery of an event that passed the filters. Reads only: the decision
 * changes nothing until `claim`.
 */
export function decide(
	input: {
		stored: DeliveryRecord;
		memory: ScopeMemory;
		event: ServiceEvent;
		messageId: string;
		fireOnRerun: boolean;
	},
	nowMs: number,
): Decision {
	const { stored, memory, event, messageId } = input;
	const { delivered } = memory;
	const entries = entriesOf(event, messageId);
	const { key } = entries;
	if (isInFlight(memory.inFlight, messageId, nowMs)) {
		return { kind: 'inFlight', why: `message ${messageId} is still being handed to n8n` };
	}
	if (isInFlight(memory.inFlight, key, nowMs)) {
		return { kind: 'inFlight', why: `another delivery of ${key} is still being handed to n8n` };
	}
	if (wasHandedOver(stored, memory, messageId)) {
		return { kind: 'duplicate', why: messageAlreadyDelivered(messageId) };
	}
	if (!inEither(stored.events, delivered.events, entries.event)) {
		return { kind: 'fire', isRerun: false };
	}
	if (event.month === undefined) {
		return { kind: 'duplicate', why: `${key} was already delivered` };
	}
	if (!input.fireOnRerun) {
		return { kind: 'duplicate', why: `${key} was already delivered (Fire Again on Re-Run is off)` };
	}
	if (inEither(stored.dates, delivered.dates, entries.date)) {
		return {
			kind: 'duplicate',
			why: `${key} was already delivered with effectiveDate ${event.effectiveDate}`,
		};
	}
	return { kind: 'fire', isRerun: true };
}

/**
 * The entries of `first`, then those only `second` holds, then `digest` (moved last if it was there),
 * the oldest dropped beyond `limit`.
 */
function merged(first: string[], second: string[], digest: string, limit: number): string[] {
	const entries = new Set(first);
	for (const entry of second) entries.add(entry);
	entries.delete(digest);
	entries.add(digest);
	return [...entries].slice(-limit);
}

/** `record` and `other` (a save that lost to a concurrent one is repaired), with this delivery last. */
function withDelivery(
	record: DeliveryRecord,
	other: DeliveryRecord,
	entries: ReturnType<typeof entriesOf>,
): DeliveryRecord {
	return {
		events: merged(record.events, other.events, entries.event, RECORD_LIMITS.eventKeys),
		dates: merged(record.dates, other.dates, entries.date, RECORD_LIMITS.eventDates),
		messages: merged(record.messages, other.messages, entries.message, RECORD_LIMITS.messageIds),
	};
}

/**
 * Holds a delivery that will fire: until `settle`, copies of it are answered "in flight". Returns the
 * record to store in static data (the stored one, this process's, and this delivery) and `settle`,
 * to call once n8n's answer left: handed over (a 2xx: n8n created the execution and saved static
 * data) or not (the sender retries, and the retry fires).
 */
export function claim(
	input: { stored: DeliveryRecord; memory: ScopeMemory; event: ServiceEvent; messageId: string },
	nowMs: number,
): { toStore: DeliveryRecord; settle: (handedOver: boolean) => void } {
	const { stored, memory, event, messageId } = input;
	const entries = entriesOf(event, messageId);
	const { key } = entries;
	memory.inFlight.set(messageId, nowMs);
	memory.inFlight.set(key, nowMs);
	const toStore = withDelivery(stored, memory.delivered, entries);
	let settled = false;
	const settle = (handedOver: boolean) => {
		if (settled) return;
		settled = true;
		memory.inFlight.delete(messageId);
		memory.inFlight.delete(key);
		if (handedOver) {
			memory.delivered = withDelivery(memory.delivered, EMPTY_RECORD, entries);
		}
	};
	return { toStore, settle };
}

/** The record as static data holds it (plain JSON). */
export function storable(record: DeliveryRecord): IDataObject {
	return { events: record.events, dates: record.dates, messages: record.messages };
}
