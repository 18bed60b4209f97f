import { askedBeforeAgentWrites } from '../agentGate';
import { resource } from '../resource';
import { create } from './create';

const RESOURCE = { value: 'billingDeclaration', name: 'Billing Declaration' };

export const billingDeclaration = resource(
	RESOURCE.value,
	RESOURCE.name,
	[
		askedBeforeAgentWrites(create, {
			resource: RESOURCE,
			permission: { name: 'allowAgentToDeclare', displayName: 'Allow the Agent to Declare' },
			action: 'send billing declarations',
			approves: 'each declaration',
			untouched: 'sent',
		}),
	],
	'create',
);
