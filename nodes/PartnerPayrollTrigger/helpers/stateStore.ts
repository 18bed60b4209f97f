import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { isObject } from '../../shared/bodies';

// Where the trigger keeps its state: in the workflow's static data, under the node's id. n8n keys a
// node's own static data by the node's name, so a rename would lose it.

const KEY_PREFIX = 'partnerPayrollTrigger:';

// n8n quirk Q3: docs/n8n-quirks.md
const keyOf = (context: IPollFunctions) => {
	const node = context.getNode();
	return `${KEY_PREFIX}${node.id || node.name}`;
};

/** This trigger's stored state, by event (read only: write with `storeEventState`). */
export function readTriggerState(context: IPollFunctions): IDataObject {
	const workflowData = context.getWorkflowStaticData('global');
	const stored = workflowData[keyOf(context)];
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
	workflowData[key] = { ...stored, [event]: value as IDataObject };
}
