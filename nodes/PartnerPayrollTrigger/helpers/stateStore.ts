import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { isObject } from '../../shared/bodies';

// Where the trigger keeps its state: in the workflow's static data, under the node's id. n8n keys a
// node's own static data by the node's name, so a rename would lose it.

const KEY_PREFIX = 'partnerPayrollTrigger:';

/** Counts the trigger's stores: of two copies of its state, the higher revision is the newer. */
const REVISION = 'revision';

// n8n quirk Q3: docs/n8n-quirks.md
const keyOf = (context: IPollFunctions) => {
	const node = context.getNode();
	return `${KEY_PREFIX}${node.id || node.name}`;
};

// n8n quirk Q21: docs/n8n-quirks.md
/**
 * The state each trigger last stored in this process. n8n saves a poll's static data only with the
 * execution of a poll that fired, and its durable scheduler builds the workflow from the database for
 * every poll: without this copy, what a poll that fired nothing learnt (a company's first answers, so
 * that its next completion fires) would be lost at every poll.
 */
const lastStored = new Map<string, IDataObject>();

const memoryKeyOf = (context: IPollFunctions) =>
	`${context.getWorkflow().id ?? ''}:${keyOf(context)}`;

/** A plain copy: n8n's static data objects are proxies that track changes, which structuredClone refuses. */
const copyOf = (state: IDataObject) => JSON.parse(JSON.stringify(state)) as IDataObject;

const revisionOf = (state: unknown) =>
	isObject(state) && typeof state[REVISION] === 'number' ? state[REVISION] : 0;

/** This trigger's stored state, by event (read only: write with `storeEventState`). */
export function readTriggerState(context: IPollFunctions): IDataObject {
	const workflowData = context.getWorkflowStaticData('global');
	const stored = workflowData[keyOf(context)];
	const remembered = lastStored.get(memoryKeyOf(context));
	if (remembered && revisionOf(remembered) > revisionOf(stored)) {
		// Set on the static data, so that the next save (a poll that fires) carries it.
		workflowData[keyOf(context)] = copyOf(remembered);
		return workflowData[keyOf(context)] as IDataObject;
	}
	if (isObject(stored)) return stored;
	// Adopted once: the state that earlier versions kept under the node's name.
	const byName = context.getWorkflowStaticData('node');
	if (!Object.keys(byName).length) return {};
	const adopted = { ...byName };
	workflowData[keyOf(context)] = adopted;
	for (const name of Object.keys(byName)) delete byName[name];
	return adopted;
}

// n8n quirk Q3: docs/n8n-quirks.md
/**
 * Stores one event's state. Always a new object set on the workflow's static data itself: n8n marks
 * static data as changed (and saves it after the execution) only when a property of an object it
 * loaded is set; a change inside an object added later would never be saved.
 */
export function storeEventState(context: IPollFunctions, event: string, value: object): void {
	const workflowData = context.getWorkflowStaticData('global');
	const key = keyOf(context);
	const stored = isObject(workflowData[key]) ? (workflowData[key] as IDataObject) : {};
	const next = { ...stored, [event]: value as IDataObject, [REVISION]: revisionOf(stored) + 1 };
	workflowData[key] = next;
	lastStored.set(memoryKeyOf(context), copyOf(next));
}

/** Forgets every trigger's copy: tests only (a new process starts empty). */
export function forgetStoredStates(): void {
	lastStored.clear();
}
