import type { IDataObject, IPollFunctions } from 'n8n-workflow';

// Where the trigger keeps its state: in the workflow's static data, under the node's id. n8n keys a
// node's own static data by the node's name, so a rename would lose it.

const KEY_PREFIX = 'partnerPayrollTrigger:';

/** This trigger's state object (changes to it are saved by n8n with the workflow). */
export function triggerState(context: IPollFunctions): IDataObject {
	const workflowData = context.getWorkflowStaticData('global');
	const node = context.getNode();
	const key = `${KEY_PREFIX}${node.id || node.name}`;
	const stored = workflowData[key];
	if (typeof stored === 'object' && stored !== null && !Array.isArray(stored)) {
		return stored as IDataObject;
	}
	// Adopted once: the state that earlier versions kept under the node's name.
	const byName = context.getWorkflowStaticData('node');
	workflowData[key] = { ...byName };
	for (const name of Object.keys(byName)) delete byName[name];
	return workflowData[key] as IDataObject;
}
