'use strict';
// Workflows built in code: a trigger (manual by default, or a webhook) followed by nodes in a chain, the
// way the editor saves them (typeVersion 1, the package's real node type prefix).
const crypto = require('node:crypto');
const { packageName } = require('./paths');

const NODE_TYPE = `${packageName}.partnerPayroll`;
const TRIGGER_NAME = 'Start';

/** The node's Authentication choice for each credential type. */
const AUTHENTICATION_OF = { partnerPayrollOAuth2Api: 'oAuth2', partnerPayrollPartnerApi: 'partnerApi' };

/** `credential` is a record from credentials.js ({id, name, type}); it also sets `authentication`. */
function partnerPayrollNode(name, parameters, credential) {
	return {
		name,
		type: NODE_TYPE,
		typeVersion: 1,
		parameters: {
			authentication: AUTHENTICATION_OF[credential.type] ?? 'accessToken',
			...parameters,
		},
		credentials: { [credential.type]: { id: credential.id, name: credential.name } },
	};
}

/**
 * A Partner Payroll Trigger node polling at `pollTimes`: Payroll Completed unless `parameters` say otherwise.
 * `credential` is a record from credentials.js and sets `authentication`, as for the node.
 */
function partnerPayrollTriggerNode(name, pollTimes, parameters, credential) {
	return {
		name,
		type: `${packageName}.partnerPayrollTrigger`,
		typeVersion: 1,
		parameters: {
			pollTimes,
			authentication: AUTHENTICATION_OF[credential.type] ?? 'accessToken',
			event: 'payrollCompleted',
			options: {},
			...parameters,
		},
		credentials: { [credential.type]: { id: credential.id, name: credential.name } },
	};
}

const manualTrigger = () => ({
	name: TRIGGER_NAME,
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	parameters: {},
});

/**
 * A Webhook node answering GET /webhook/<path> when the last node has run, with `responseData`
 * (`allEntries`, `firstEntryJson`, `firstEntryBinary`...) of that node. Works once the workflow is published.
 */
function webhookTrigger(webhookPath, responseData = 'firstEntryJson') {
	return {
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: crypto.randomUUID(),
		parameters: {
			httpMethod: 'GET',
			path: webhookPath,
			responseMode: 'lastNode',
			responseData,
			options: {},
		},
	};
}

/** trigger → nodes[0] → nodes[1] → ...; the trigger is a manual one (named Start) unless given. */
function chainWorkflow(id, name, nodes, { trigger = manualTrigger() } = {}) {
	const all = [trigger, ...nodes].map((node, index) => ({
		id: `${id}-${index}`,
		position: [index * 220, 0],
		...node,
	}));
	const connections = {};
	for (let index = 0; index < all.length - 1; index += 1) {
		connections[all[index].name] = {
			main: [[{ node: all[index + 1].name, type: 'main', index: 0 }]],
		};
	}
	return { id, name, active: false, settings: { executionOrder: 'v1' }, nodes: all, connections };
}

module.exports = { NODE_TYPE, partnerPayrollNode, partnerPayrollTriggerNode, chainWorkflow, webhookTrigger };
