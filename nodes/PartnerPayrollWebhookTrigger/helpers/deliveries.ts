import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import type { HealthMemory } from './companyHealth';
import type { ServiceEvent } from './events';
import { isInFlight } from '../../shared/inFlight';
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

/** Bounds of the stored record (the oldest entries go first): a few hundred kilobytes at most. */
export const RECORD_LIMITS = { eventKeys: 2000, datesPerKey: 20, messageIds: 1000 };

export interface DeliveryRecord {
	/** Event key (a month's key or an integration change's key) → effectiveDates handed over, oldest first. */
	events: Record<string, string[]>;
	/** Message ids handed over, oldest first. */
	messages: string[];
}

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
			delivered: { events: {}, messages: [] },
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

const strings = (value: unknown): string[] =>
	Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];

/** The stored record, whatever static data holds (nothing yet, or an unexpected shape: empty). */
export function readRecord(stored: unknown): DeliveryRecord {
	const record: DeliveryRecord = { events: {}, messages: [] };
	if (!stored || typeof stored !== 'object') return record;
	const { events, messages } = stored as { events?: unknown; messages?: unknown };
	if (events && typeof events === 'object' && !Array.isArray(events)) {
		for (const [key, dates] of Object.entries(events)) record.events[key] = strings(dates);
	}
	record.messages = strings(messages);
	return record;
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
	const key = eventKey(event);
	if (isInFlight(memory.inFlight, messageId, nowMs)) {
		return { kind: 'inFlight', why: `message ${messageId} is still being handed to n8n` };
	}
	if (isInFlight(memory.inFlight, key, nowMs)) {
		return { kind: 'inFlight', why: `another delivery of ${key} is still being handed to n8n` };
	}
	if (stored.messages.includes(messageId) || memory.delivered.messages.includes(messageId)) {
		return { kind: 'duplicate', why: messageAlreadyDelivered(messageId) };
	}
	const dates = [...(stored.events[key] ?? []), ...(memory.delivered.events[key] ?? [])];
	if (!dates.length) return { kind: 'fire', isRerun: false };
	if (event.month === undefined) {
		return { kind: 'duplicate', why: `${key} was already delivered` };
	}
	if (!input.fireOnRerun) {
		return { kind: 'duplicate', why: `${key} was already delivered (Fire Again on Re-Run is off)` };
	}
	if (dates.includes(event.effectiveDate)) {
		return {
			kind: 'duplicate',
			why: `${key} was already delivered with effectiveDate ${event.effectiveDate}`,
		};
	}
	return { kind: 'fire', isRerun: true };
}

function withDelivery(
	record: DeliveryRecord,
	key: string,
	effectiveDate: string,
	messageId: string,
): DeliveryRecord {
	const events = { ...record.events };
	const dates = (events[key] ?? []).filter((date) => date !== effectiveDate);
	// Re-inserted last: the oldest keys are the first ones dropped.
	delete events[key];
	events[key] = [...dates, effectiveDate].slice(-RECORD_LIMITS.datesPerKey);
	const keys = Object.keys(events);
	for (const dropped of keys.slice(0, Math.max(0, keys.length - RECORD_LIMITS.eventKeys))) {
		delete events[dropped];
	}
	const messages = [...record.messages.filter((id) => id !== messageId), messageId].slice(
		-RECORD_LIMITS.messageIds,
	);
	return { events, messages };
}

function union(first: DeliveryRecord, second: DeliveryRecord): DeliveryRecord {
	const events: Record<string, string[]> = {};
	for (const source of [first, second]) {
		for (const [key, dates] of Object.entries(source.events)) {
			events[key] = [...new Set([...(events[key] ?? []), ...dates])].slice(
				-RECORD_LIMITS.datesPerKey,
			);
		}
	}
	const messages = [...new Set([...first.messages, ...second.messages])];
	return { events, messages };
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
	const key = eventKey(event);
	memory.inFlight.set(messageId, nowMs);
	memory.inFlight.set(key, nowMs);
	const toStore = withDelivery(
		union(stored, memory.delivered),
		key,
		event.effectiveDate,
		messageId,
	);
	let settled = false;
	const settle = (handedOver: boolean) => {
		if (settled) return;
		settled = true;
		memory.inFlight.delete(messageId);
		memory.inFlight.delete(key);
		if (handedOver) {
			memory.delivered = withDelivery(memory.delivered, key, event.effectiveDate, messageId);
		}
	};
	return { toStore, settle };
}

/** The record as static data holds it (plain JSON). */
export function storable(record: DeliveryRecord): IDataObject {
	return { events: record.events, messages: record.messages };
}
